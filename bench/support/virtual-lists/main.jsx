// The page of `npm run bench -- virtual-lists` (bench/suites/virtual-lists.mjs): one list of
// `count` bubbles of varied heights, opened at its end, drawn by the virtualiser named in `?kind=`:
// `virtuoso` (react-virtuoso, as the chat's list sets it up: look-ahead, measured in the
// ResizeObserver's callback, given a count of rows), `virtuoso-data` (the same given the rows as
// `data`, as the chat's list is), `tanstack` (@tanstack/react-virtual, each row's height estimated
// from its text before it mounts) or `static` (every row in the page: what the machine allows).
import { useLayoutEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Virtuoso } from 'react-virtuoso';

const params = new URLSearchParams(location.search);
const COUNT = Number(params.get('count') ?? 3000);
const KIND = params.get('kind') ?? 'static';
const texts = Array.from(
  { length: COUNT },
  (_, i) => `Message ${i + 1}: ${'the moon was bright and she smiled softly. '.repeat(1 + ((i * 7) % 9))}`,
);
/** A row's height guessed from its text: the bubble's padding and a line of 24 px per ≈ 40 characters. */
const estimate = (i) => 46 + Math.ceil((texts[i].length * 8.2) / 330) * 24;

function Row({ i }) {
  return (
    <div style={{ padding: '0 12px 12px', display: 'flex', justifyContent: i % 2 ? 'flex-end' : 'flex-start' }}>
      <p style={{ margin: 0, maxWidth: '85%', borderRadius: 16, padding: '10px 16px', background: '#2a2a33' }}>
        {texts[i]}
      </p>
    </div>
  );
}

const scrollerStyle = { height: 844, overflowY: 'auto', overflowAnchor: 'none' };

function TanStackList() {
  const scroller = useRef(null);
  const list = useVirtualizer({
    count: COUNT,
    getScrollElement: () => scroller.current,
    estimateSize: estimate,
    overscan: 3,
  });
  useLayoutEffect(() => {
    list.scrollToIndex(COUNT - 1, { align: 'end' });
  }, [list]);
  return (
    <div ref={scroller} data-scroller style={scrollerStyle}>
      <div style={{ height: list.getTotalSize(), position: 'relative' }}>
        {list.getVirtualItems().map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            data-row
            ref={list.measureElement}
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
          >
            <Row i={item.index} />
          </div>
        ))}
      </div>
    </div>
  );
}

const messages = texts.map((text, i) => ({ id: `m${i}`, i }));

/**
 * react-virtuoso as the chat's list sets it up; given a count of rows, or (`asData`) the rows as
 * `data`, an array, as the chat's list is.
 */
function VirtuosoList({ asData = false }) {
  return (
    <Virtuoso
      style={{ height: 844 }}
      data-scroller
      {...(asData ? { data: messages } : { totalCount: COUNT })}
      initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
      increaseViewportBy={{ top: 300, bottom: 200 }}
      overscan={{ main: 600, reverse: 0 }}
      skipAnimationFrameInResizeObserver
      itemContent={(i, message) => (
        <div data-row>
          <Row i={message ? message.i : i} />
        </div>
      )}
    />
  );
}

function StaticList() {
  const scroller = useRef(null);
  useLayoutEffect(() => {
    scroller.current.scrollTop = scroller.current.scrollHeight;
  }, []);
  return (
    <div ref={scroller} data-scroller style={scrollerStyle}>
      {texts.map((_, i) => (
        <div key={i} data-index={i} data-row>
          <Row i={i} />
        </div>
      ))}
    </div>
  );
}

const List =
  {
    tanstack: TanStackList,
    virtuoso: VirtuosoList,
    'virtuoso-data': () => <VirtuosoList asData />,
    static: StaticList,
  }[KIND] ?? StaticList;
createRoot(document.getElementById('root')).render(<List />);
