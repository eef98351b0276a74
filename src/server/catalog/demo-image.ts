/**
 * Product, banner and gallery pictures for the demo catalog, drawn as SVG from the file name alone
 * (kind and seed), so the shop ships no downloaded images and every URL is stable and cacheable.
 */
const palettes = [
  ['#ffe8a3', '#ffd000', '#b38f00'],
  ['#d8f3dc', '#39b54a', '#1f6f2a'],
  ['#dbeafe', '#408de5', '#1d4f91'],
  ['#fde2e4', '#f28482', '#9d3b39'],
  ['#ede7f6', '#9575cd', '#4527a0'],
  ['#fff1e6', '#f4a261', '#9c5a1f'],
  ['#e0f7fa', '#26c6da', '#006064'],
  ['#fce4ec', '#ec407a', '#880e4f'],
] as const;

function hash(text: string): number {
  let value = 2166136261;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 16777619);
  }
  return value >>> 0;
}

const shapes: Record<string, (main: string, dark: string) => string> = {
  gift: (m, d) => `<rect x="150" y="220" width="180" height="150" rx="10" fill="${m}"/><rect x="135" y="185" width="210" height="50" rx="8" fill="${d}"/><rect x="228" y="185" width="24" height="185" fill="#fff" opacity=".85"/><path d="M240 185c-40-60-95-20-45 0zM240 185c40-60 95-20 45 0z" fill="${d}"/>`,
  serum: (m, d) => `<rect x="195" y="190" width="90" height="180" rx="18" fill="${m}"/><rect x="215" y="140" width="50" height="55" rx="6" fill="${d}"/><rect x="230" y="100" width="20" height="45" rx="8" fill="${d}"/><rect x="210" y="250" width="60" height="50" rx="6" fill="#fff" opacity=".8"/>`,
  lipstick: (m, d) => `<rect x="200" y="250" width="80" height="130" rx="8" fill="${d}"/><rect x="210" y="200" width="60" height="55" fill="#e6e6e6"/><path d="M215 200v-70l50-30v100z" fill="${m}"/>`,
  perfume: (m, d) => `<rect x="170" y="200" width="140" height="170" rx="30" fill="${m}" opacity=".9"/><rect x="220" y="160" width="40" height="45" fill="${d}"/><rect x="205" y="125" width="70" height="40" rx="10" fill="${d}"/><circle cx="240" cy="285" r="35" fill="#fff" opacity=".6"/>`,
  pencil: (m, d) => `<g transform="rotate(-35 240 240)"><rect x="120" y="215" width="220" height="50" fill="${m}"/><path d="M340 215l60 25-60 25z" fill="#f5d6a8"/><path d="M385 234l15 6-15 6z" fill="#333"/><rect x="95" y="215" width="30" height="50" fill="${d}"/></g>`,
  hairclip: (m, d) => `<path d="M150 240c0-50 60-70 90-30 30-40 90-20 90 30s-60 70-90 30c-30 40-90 20-90-30z" fill="${m}"/><circle cx="240" cy="240" r="22" fill="${d}"/>`,
  ring: (m, d) => `<circle cx="240" cy="270" r="85" fill="none" stroke="${m}" stroke-width="22"/><path d="M210 185l30-45 30 45-30 25z" fill="${d}"/>`,
  bag: (m, d) => `<path d="M150 210h180l-15 160H165z" fill="${m}"/><path d="M195 210v-30a45 45 0 0 1 90 0v30" fill="none" stroke="${d}" stroke-width="14"/>`,
  favour: (m, d) => `<path d="M170 230c30-30 110-30 140 0l-20 140h-100z" fill="${m}"/><path d="M200 225c10-40 70-40 80 0" fill="none" stroke="${d}" stroke-width="10"/><circle cx="240" cy="300" r="22" fill="#fff" opacity=".8"/>`,
  balloon: (m, d) => `<ellipse cx="200" cy="200" rx="60" ry="75" fill="${m}"/><ellipse cx="290" cy="220" rx="55" ry="70" fill="${d}"/><path d="M200 275q10 50-10 100M290 290q-10 40 10 85" stroke="#666" stroke-width="3" fill="none"/>`,
  bear: (m, d) => `<circle cx="240" cy="250" r="95" fill="${m}"/><circle cx="170" cy="170" r="35" fill="${m}"/><circle cx="310" cy="170" r="35" fill="${m}"/><circle cx="210" cy="235" r="10" fill="#333"/><circle cx="270" cy="235" r="10" fill="#333"/><ellipse cx="240" cy="285" rx="35" ry="25" fill="${d}" opacity=".5"/>`,
  candle: (m, d) => `<rect x="175" y="210" width="130" height="160" rx="14" fill="${m}"/><rect x="237" y="175" width="6" height="40" fill="#333"/><path d="M240 120c20 25 15 50 0 55-15-5-20-30 0-55z" fill="#ffb300"/><rect x="175" y="270" width="130" height="30" fill="${d}" opacity=".4"/>`,
  card: (m, d) => `<rect x="140" y="160" width="200" height="160" rx="8" fill="${m}" transform="rotate(-6 240 240)"/><path d="M240 220c-25-35-70-5-40 25l40 35 40-35c30-30-15-60-40-25z" fill="${d}"/>`,
  cushion: (m, d) => `<ellipse cx="240" cy="330" rx="140" ry="38" fill="${d}"/><rect x="100" y="268" width="280" height="62" fill="${d}"/><ellipse cx="240" cy="268" rx="140" ry="38" fill="${m}"/><ellipse cx="240" cy="264" rx="100" ry="24" fill="#fff" opacity=".45"/><ellipse cx="300" cy="190" rx="70" ry="22" fill="#f6ece4"/><ellipse cx="300" cy="180" rx="70" ry="22" fill="#fff"/>`,
  palette: (m, d) => `<rect x="100" y="160" width="280" height="180" rx="20" fill="${d}"/><rect x="125" y="185" width="66" height="58" rx="10" fill="${m}"/><rect x="207" y="185" width="66" height="58" rx="10" fill="${m}" opacity=".75"/><rect x="289" y="185" width="66" height="58" rx="10" fill="${m}" opacity=".5"/><rect x="125" y="257" width="66" height="58" rx="10" fill="#fff" opacity=".8"/><rect x="207" y="257" width="66" height="58" rx="10" fill="${m}" opacity=".35"/><rect x="289" y="257" width="66" height="58" rx="10" fill="${d}" opacity=".6" stroke="#fff" stroke-width="3"/>`,
  mascara: (m, d) => `<rect x="185" y="110" width="70" height="120" rx="12" fill="${d}"/><rect x="185" y="225" width="70" height="160" rx="14" fill="${m}"/><rect x="305" y="180" width="10" height="200" rx="5" fill="${d}"/><rect x="296" y="120" width="28" height="80" rx="12" fill="#333"/>`,
  blush: (m, d) => `<circle cx="240" cy="260" r="120" fill="${d}"/><circle cx="240" cy="260" r="92" fill="${m}"/><path d="M185 235q55-45 110 0" stroke="#fff" stroke-width="12" fill="none" opacity=".5"/>`,
  browpencil: (m, d) => `<g transform="rotate(-35 240 240)"><rect x="110" y="226" width="240" height="28" rx="4" fill="${d}"/><path d="M350 226l44 14-44 14z" fill="#f5d6a8"/><path d="M382 236l12 4-12 4z" fill="${m}"/><rect x="84" y="226" width="30" height="28" rx="4" fill="#c9c9c9"/></g>`,
  photo: (m, d) => `<circle cx="160" cy="170" r="40" fill="#fff" opacity=".7"/><path d="M40 400l140-150 90 90 70-60 100 120z" fill="${d}" opacity=".8"/><rect x="220" y="160" width="120" height="90" rx="8" fill="${m}"/>`,
};

export const demoImageKinds = Object.keys(shapes);

/** A variant's picture in its shade (`lipstick-shade-f4a683`: a peach lipstick): the shade, a pale and a deep tone of it. */
function shadePalette(hex: string): readonly [string, string, string] {
  const channels = [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
  const toward = (target: number, share: number) =>
    `#${channels.map((channel) => Math.round(channel + (target - channel) * share).toString(16).padStart(2, '0')).join('')}`;
  return [toward(255, 0.8), `#${hex}`, toward(0, 0.45)];
}

/** `lipstick-P00012-1` → an SVG picture; unknown kinds draw a gift. */
export function demoImageSvg(name: string): string {
  const [kind = 'gift'] = name.split('-', 1);
  const seed = hash(name);
  const shade = /-shade-([0-9a-f]{6})$/.exec(name)?.[1];
  const [light, main, dark] = shade ? shadePalette(shade) : (palettes[seed % palettes.length] ?? palettes[0]);
  if (kind === 'banner') {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="400" viewBox="0 0 1200 400"><defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="${main}"/><stop offset="1" stop-color="${light}"/></linearGradient></defs><rect width="1200" height="400" fill="url(#g)"/><g opacity=".35" fill="#fff"><circle cx="1000" cy="80" r="120"/><circle cx="1120" cy="330" r="90"/><circle cx="820" cy="360" r="60"/></g><g transform="translate(780 30) scale(0.7)">${(shapes.gift as (m: string, d: string) => string)('#fff', dark)}</g></svg>`;
  }
  const draw = shapes[kind] ?? shapes.gift;
  const angle = seed % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480"><defs><linearGradient id="b" gradientTransform="rotate(${angle % 90})"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs><rect width="480" height="480" fill="url(#b)"/><circle cx="${80 + (seed % 320)}" cy="${60 + ((seed >> 8) % 80)}" r="${20 + (seed % 30)}" fill="${main}" opacity=".18"/>${(draw as (m: string, d: string) => string)(main, dark)}</svg>`;
}
