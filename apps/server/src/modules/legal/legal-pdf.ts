import { marked, type Token, type Tokens } from 'marked';

interface Segment {
  text: string;
  bold: boolean;
  italic: boolean;
  link?: string;
}

/** Flattens inline Markdown tokens into styled runs of text. */
function inlineSegments(tokens: Token[] | undefined, style = { bold: false, italic: false }): Segment[] {
  if (!tokens) return [];
  return tokens.flatMap((token): Segment[] => {
    switch (token.type) {
      case 'strong':
        return inlineSegments((token as Tokens.Strong).tokens, { ...style, bold: true });
      case 'em':
        return inlineSegments((token as Tokens.Em).tokens, { ...style, italic: true });
      case 'link': {
        const link = token as Tokens.Link;
        return inlineSegments(link.tokens, style).map((s) => ({ ...s, link: link.href }));
      }
      case 'br':
        return [{ text: '\n', ...style }];
      case 'text': {
        const text = token as Tokens.Text;
        return text.tokens ? inlineSegments(text.tokens, style) : [{ text: decode(text.text), ...style }];
      }
      default:
        return [{ text: decode((token as { text?: string }).text ?? token.raw), ...style }];
    }
  });
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The text of marked's escaped tokens, in one pass (`&amp;lt;` stays the text `&lt;`). */
const decode = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

function fontFor(segment: Segment): string {
  if (segment.bold && segment.italic) return 'Helvetica-BoldOblique';
  if (segment.bold) return 'Helvetica-Bold';
  if (segment.italic) return 'Helvetica-Oblique';
  return 'Helvetica';
}

function writeSegments(doc: PDFKit.PDFDocument, segments: Segment[], options: PDFKit.Mixins.TextOptions = {}) {
  const runs = segments.filter((s) => s.text.length > 0);
  runs.forEach((segment, index) => {
    doc
      .font(fontFor(segment))
      .fillColor(segment.link ? '#5b3cc4' : '#1f1b2d')
      .text(segment.text, {
        ...options,
        continued: index < runs.length - 1,
        link: segment.link ?? undefined,
        underline: Boolean(segment.link),
      });
  });
}

/** Renders a Markdown document (headings, paragraphs, lists) to a PDF. */
export async function renderMarkdownPdf(markdown: string, meta: { title: string; author: string }): Promise<Buffer> {
  // Loaded on first use: pdfkit takes ≈ 0.4 s to import and most starts never need it.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 64, bottom: 64, left: 64, right: 64 },
    info: { Title: meta.title, Author: meta.author },
    bufferPages: true,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  for (const token of marked.lexer(markdown)) {
    switch (token.type) {
      case 'heading': {
        const heading = token as Tokens.Heading;
        const size = heading.depth === 1 ? 20 : heading.depth === 2 ? 14 : 12;
        doc.moveDown(heading.depth === 1 ? 0 : 0.6).fontSize(size);
        writeSegments(
          doc,
          inlineSegments(heading.tokens).map((s) => ({ ...s, bold: true })),
        );
        doc.moveDown(0.4);
        break;
      }
      case 'paragraph':
        doc.fontSize(10.5);
        writeSegments(doc, inlineSegments((token as Tokens.Paragraph).tokens), { lineGap: 2 });
        doc.moveDown(0.6);
        break;
      case 'list': {
        const list = token as Tokens.List;
        doc.fontSize(10.5);
        list.items.forEach((item, index) => {
          const marker = list.ordered ? `${Number(list.start || 1) + index}. ` : '•  ';
          writeSegments(doc, [{ text: marker, bold: false, italic: false }, ...inlineSegments(item.tokens)], {
            indent: 12,
            lineGap: 2,
          });
          doc.moveDown(0.2);
        });
        doc.moveDown(0.4);
        break;
      }
      case 'hr':
        doc.moveDown(0.5);
        break;
      default:
        break;
    }
  }

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#6b6780')
      .text(`${meta.title} — ${i + 1} / ${range.count}`, 64, doc.page.height - 40, {
        align: 'center',
        width: doc.page.width - 128,
      });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return finished;
}
