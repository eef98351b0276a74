import autocannon from 'autocannon';
const cats = 'accessories,bags,cards-wrapping,dolls,gifts,home,jewellery,makeup,party-favours,party-supplies,perfume,skincare,stationery'.split(',');
const sorts = ['newest','price_asc','price_desc','name'];
let n = 0;
const r = await autocannon({ url: 'http://127.0.0.1:4880', connections: 4, duration: Number(process.argv[2] ?? 20), requests: [{ setupRequest: (req) => ({ ...req, path: `/product/category/page/${1 + (n++ % 40)}?category=${cats[n % cats.length]}&sort=${sorts[n % 4]}&n=${n}` }) }] });
console.log(r.requests.average, 'req/s', r.latency.p50, r.latency.p97_5, 'non2xx', r.non2xx);
