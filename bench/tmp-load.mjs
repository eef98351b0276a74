import autocannon from 'autocannon';
const [base, kind, seconds = '10'] = process.argv.slice(2);
const random = (max) => Math.floor(Math.random() * max);
const sorts = ['newest', 'price_asc', 'price_desc', 'name'];
const cats = ['makeup', 'skincare', 'stationery', 'accessories', 'party', 'gifts'];
let n = 0;
const next = kind === 'product' ? () => `/product/P${String(1 + random(99999)).padStart(5, '0')}` : () => `/product/category/page/${1 + (n++ % 40)}?sort=${sorts[random(4)]}&n=${n}`;
const r = await autocannon({ url: base, connections: 10, duration: Number(seconds), headers: { 'accept-encoding': process.env.ENC ?? 'br, gzip' }, requests: [{ setupRequest: (req) => ({ ...req, path: next() }) }] });
console.log(kind, r.requests.average, 'p97.5', r.latency.p97_5, 'non2xx', r.non2xx);
