import { PGlite } from '@electric-sql/pglite';
let t = performance.now();
const a = await PGlite.create();
console.log('create', Math.round(performance.now() - t));
t = performance.now();
await a.exec('create table x(id int); insert into x values (1)');
const dump = await a.dumpDataDir('none');
console.log('dump', Math.round(performance.now() - t), dump.size);
t = performance.now();
const b = await PGlite.create({ loadDataDir: dump });
console.log('load', Math.round(performance.now() - t), (await b.query('select * from x')).rows);
t = performance.now();
if (a.clone) {
  const c = await a.clone();
  console.log('clone', Math.round(performance.now() - t), (await c.query('select * from x')).rows);
}
