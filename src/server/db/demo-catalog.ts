/**
 * A deterministic generator of a believable Thai gift shop: the same index always gives the same
 * product, so demo data, tests and 100,000-product benchmarks agree run after run.
 */

export type ImageKind =
  | 'gift'
  | 'serum'
  | 'lipstick'
  | 'perfume'
  | 'pencil'
  | 'hairclip'
  | 'ring'
  | 'bag'
  | 'favour'
  | 'balloon'
  | 'bear'
  | 'candle'
  | 'card'
  | 'cushion'
  | 'palette'
  | 'mascara'
  | 'blush'
  | 'browpencil';

export interface DemoCategory {
  code: string;
  name: string;
  nameEn: string;
  description: string;
  image: ImageKind;
  /** Items drawn otherwise than the category's own drawing (a cushion is not a lipstick). */
  itemImages?: Partial<Record<string, ImageKind>>;
  priceRange: [number, number];
  items: string[];
  variants: string[];
  unit: string;
}

export const demoCategories: DemoCategory[] = [
  {
    code: 'gifts',
    name: 'ของขวัญ',
    nameEn: 'Gifts',
    description: 'ของขวัญสำหรับทุกโอกาส วันเกิด วันครบรอบ และวันสำคัญ',
    image: 'gift',
    priceRange: [99, 1290],
    items: ['กล่องของขวัญเซอร์ไพรส์', 'ชุดของขวัญวันเกิด', 'แก้วมัคสกรีนชื่อ', 'กรอบรูปไม้แกะสลัก', 'โคมไฟดวงดาว', 'กล่องดนตรีไขลาน', 'หมอนอิงพิมพ์ลาย', 'ชุดของขวัญครบรอบ'],
    variants: ['สีชมพูพาสเทล', 'สีฟ้า', 'ลายดอกไม้', 'ลายหมีน้อย', 'ขนาดกลาง', 'ขนาดใหญ่', 'รุ่นพิเศษ', 'สไตล์มินิมอล'],
    unit: 'ชิ้น',
  },
  {
    code: 'skincare',
    name: 'สกินแคร์',
    nameEn: 'Skincare',
    description: 'ผลิตภัณฑ์บำรุงผิวหน้าและผิวกาย อ่อนโยน เหมาะกับอากาศเมืองไทย',
    image: 'serum',
    priceRange: [89, 990],
    items: ['เซรั่มวิตามินซี', 'ครีมบำรุงผิวหน้า', 'โลชั่นน้ำนมข้าว', 'มาส์กหน้าใบบัวบก', 'กันแดด SPF50 PA++++', 'โฟมล้างหน้า', 'โทนเนอร์ชาเขียว', 'ครีมทามือกลิ่นมะลิ'],
    variants: ['ขนาด 30 มล.', 'ขนาด 50 มล.', 'ขนาดพกพา', 'สูตรอ่อนโยน', 'สูตรผิวแพ้ง่าย', 'สูตรเข้มข้น', 'แพ็กคู่', 'ขนาด 100 มล.'],
    unit: 'ชิ้น',
  },
  {
    code: 'makeup',
    name: 'เครื่องสำอาง',
    nameEn: 'Makeup',
    description: 'ลิปสติก บลัชออน อายแชโดว์ สีสวยติดทน',
    image: 'lipstick',
    priceRange: [79, 690],
    items: ['ลิปสติกเนื้อแมตต์', 'ลิปทินท์ฉ่ำวาว', 'ลิปบาล์มมีสี', 'บลัชออนเนื้อครีม', 'พาเลตต์อายแชโดว์', 'มาสคาร่ากันน้ำ', 'คุชชั่นคุมมัน', 'ดินสอเขียนคิ้ว'],
    itemImages: { บลัชออนเนื้อครีม: 'blush', พาเลตต์อายแชโดว์: 'palette', มาสคาร่ากันน้ำ: 'mascara', คุชชั่นคุมมัน: 'cushion', ดินสอเขียนคิ้ว: 'browpencil' },
    variants: ['สีชมพูนู้ด', 'สีแดงอิฐ', 'สีส้มพีช', 'สีโรสวู้ด', 'สีน้ำตาลนม', 'สีเบอร์รี่', 'สีคอรัล', 'สีม่วงพลัม'],
    unit: 'ชิ้น',
  },
  {
    code: 'perfume',
    name: 'น้ำหอม',
    nameEn: 'Perfume',
    description: 'น้ำหอมและสเปรย์ฉีดตัวกลิ่นหอมละมุน',
    image: 'perfume',
    priceRange: [129, 1890],
    items: ['น้ำหอมโอเดอพาร์ฟูม', 'บอดี้มิสต์', 'โรลออนน้ำหอม', 'น้ำหอมแบบแท่ง', 'ชุดน้ำหอมทดลอง', 'น้ำหอมติดรถยนต์'],
    variants: ['กลิ่นมะลิ', 'กลิ่นกุหลาบ', 'กลิ่นดอกส้ม', 'กลิ่นวานิลลา', 'กลิ่นชาขาว', 'กลิ่นไม้หอม', 'ขนาด 10 มล.', 'ขนาด 50 มล.'],
    unit: 'ขวด',
  },
  {
    code: 'stationery',
    name: 'เครื่องเขียน',
    nameEn: 'Stationery',
    description: 'สมุด ปากกา สติกเกอร์ และอุปกรณ์สำนักงานน่ารัก',
    image: 'pencil',
    priceRange: [15, 390],
    items: ['ปากกาเจลหมึกสี', 'สมุดโน้ตปกแข็ง', 'สติกเกอร์ไดคัท', 'ปากกาไฮไลต์พาสเทล', 'กระดาษโน้ตกาวในตัว', 'แพลนเนอร์รายปี', 'เทปตกแต่งวาชิ', 'กล่องดินสอผ้าแคนวาส'],
    variants: ['ลายแมวเหมียว', 'ลายกระต่าย', 'สีพาสเทล', 'แพ็ก 6 ชิ้น', 'แพ็ก 12 ชิ้น', 'ขนาด A5', 'ขนาด B6', 'ลายผลไม้'],
    unit: 'ชิ้น',
  },
  {
    code: 'accessories',
    name: 'เครื่องประดับแฟชั่น',
    nameEn: 'Accessories',
    description: 'กิ๊บ ยางรัดผม ที่คาดผม และแอคเซสซอรี่แต่งลุค',
    image: 'hairclip',
    priceRange: [25, 450],
    items: ['กิ๊บติดผมมุก', 'ยางรัดผมผ้าซาติน', 'ที่คาดผมกำมะหยี่', 'สายคล้องแมสก์', 'พวงกุญแจตุ๊กตา', 'สายคล้องโทรศัพท์', 'ต่างหูหนีบ', 'แว่นกันแดดแฟชั่น'],
    variants: ['สีครีม', 'สีดำ', 'สีชมพู', 'ลายสก็อต', 'เซ็ต 3 ชิ้น', 'เซ็ต 5 ชิ้น', 'สีทอง', 'สีเงิน'],
    unit: 'ชิ้น',
  },
  {
    code: 'jewellery',
    name: 'จิวเวลรี่',
    nameEn: 'Jewellery',
    description: 'สร้อย แหวน ต่างหู เงินแท้และชุบทอง',
    image: 'ring',
    priceRange: [190, 2990],
    items: ['สร้อยคอเงินแท้', 'แหวนชุบทอง 18K', 'ต่างหูห่วงเงินแท้', 'กำไลข้อมือหินนำโชค', 'สร้อยข้อมือชาร์ม', 'จี้รูปหัวใจ'],
    variants: ['ประดับเพทาย', 'ดีไซน์มินิมอล', 'ลายดอกไม้', 'ขนาดฟรีไซซ์', 'พร้อมกล่องของขวัญ', 'สีโรสโกลด์'],
    unit: 'ชิ้น',
  },
  {
    code: 'bags',
    name: 'กระเป๋า',
    nameEn: 'Bags',
    description: 'กระเป๋าผ้า กระเป๋าสตางค์ และกระเป๋าเครื่องสำอาง',
    image: 'bag',
    priceRange: [59, 1590],
    items: ['กระเป๋าผ้าแคนวาส', 'กระเป๋าสตางค์ใบสั้น', 'กระเป๋าเครื่องสำอาง', 'กระเป๋าสะพายข้าง', 'กระเป๋าใส่เหรียญ', 'ถุงผ้ารักษ์โลก'],
    variants: ['สีเบจ', 'สีดำ', 'สีเขียวมินต์', 'ลายดอกเดซี่', 'ไซซ์ M', 'ไซซ์ L', 'ปักชื่อได้', 'ผ้าฝ้ายทอมือ'],
    unit: 'ใบ',
  },
  {
    code: 'party-favours',
    name: 'ของชำร่วย',
    nameEn: 'Party favours',
    description: 'ของชำร่วยงานแต่ง งานบวช งานเกษียณ ราคาส่งเมื่อสั่งจำนวนมาก',
    image: 'favour',
    priceRange: [9, 89],
    items: ['ของชำร่วยงานแต่งงาน', 'ถุงหอมสมุนไพร', 'พวงกุญแจผ้าไทย', 'สบู่แฟนซีรูปดอกไม้', 'ยาดมสมุนไพรขวดแก้ว', 'ที่เปิดขวดของชำร่วย', 'แม่เหล็กติดตู้เย็น', 'ตลับยาหม่องจิ๋ว'],
    variants: ['ใส่ถุงผ้าโปร่ง', 'พร้อมการ์ดขอบคุณ', 'สกรีนชื่อบ่าวสาว', 'กลิ่นตะไคร้', 'ลายช้างไทย', 'สีทองชมพู', 'แพ็ก 10 ชิ้น', 'แบบกล่องใส'],
    unit: 'ชิ้น',
  },
  {
    code: 'party-supplies',
    name: 'อุปกรณ์งานปาร์ตี้',
    nameEn: 'Party supplies',
    description: 'ลูกโป่ง ป้ายวันเกิด และของตกแต่งงานปาร์ตี้',
    image: 'balloon',
    priceRange: [19, 590],
    items: ['ลูกโป่งฟอยล์ตัวเลข', 'ป้ายแฮปปี้เบิร์ธเดย์', 'ชุดลูกโป่งพาสเทล', 'เทียนวันเกิด', 'หมวกปาร์ตี้', 'ม่านฟอยล์ระยิบระยับ', 'จานกระดาษลายน่ารัก', 'พลุกระดาษโปรยปราย'],
    variants: ['สีทอง', 'สีเงิน', 'สีโรสโกลด์', 'ธีมยูนิคอร์น', 'ธีมไดโนเสาร์', 'แพ็ก 20 ชิ้น', 'แพ็ก 50 ชิ้น', 'ธีมทะเล'],
    unit: 'ชุด',
  },
  {
    code: 'dolls',
    name: 'ตุ๊กตา',
    nameEn: 'Dolls & plush',
    description: 'ตุ๊กตาผ้านุ่มนิ่ม ของขวัญสุดน่ารัก',
    image: 'bear',
    priceRange: [99, 1490],
    items: ['ตุ๊กตาหมีเท็ดดี้', 'ตุ๊กตากระต่ายหูยาว', 'ตุ๊กตาช้างน้อย', 'หมอนตุ๊กตาแมว', 'ตุ๊กตาไดโนเสาร์', 'พวงกุญแจตุ๊กตาจิ๋ว'],
    variants: ['ขนาด 20 ซม.', 'ขนาด 35 ซม.', 'ขนาด 60 ซม.', 'สีน้ำตาล', 'สีครีม', 'ใส่ชุดนักเรียน', 'ถือหัวใจ', 'ปักชื่อได้'],
    unit: 'ตัว',
  },
  {
    code: 'home',
    name: 'ของแต่งบ้าน',
    nameEn: 'Home & living',
    description: 'เทียนหอม ก้านไม้หอม และของแต่งบ้านสไตล์มินิมอล',
    image: 'candle',
    priceRange: [69, 990],
    items: ['เทียนหอมในแก้ว', 'ก้านไม้หอมปรับอากาศ', 'แจกันเซรามิก', 'ต้นไม้ปลอมในกระถาง', 'ผ้าคลุมโซฟา', 'นาฬิกาแขวนผนัง'],
    variants: ['กลิ่นลาเวนเดอร์', 'กลิ่นตะไคร้หอม', 'กลิ่นมะลิ', 'สีขาว', 'สีเขียวเสจ', 'ขนาดเล็ก', 'ขนาดใหญ่', 'สไตล์วินเทจ'],
    unit: 'ชิ้น',
  },
  {
    code: 'cards-wrapping',
    name: 'การ์ดและห่อของขวัญ',
    nameEn: 'Cards & wrapping',
    description: 'การ์ดอวยพร กระดาษห่อของขวัญ ริบบิ้น และกล่อง',
    image: 'card',
    priceRange: [10, 199],
    items: ['การ์ดอวยพรวันเกิด', 'กระดาษห่อของขวัญ', 'ริบบิ้นผ้าซาติน', 'กล่องของขวัญฝาแม่เหล็ก', 'ถุงกระดาษหูหิ้ว', 'สติกเกอร์ซีลขอบคุณ'],
    variants: ['ลายจุด', 'สีคราฟต์', 'ลายดอกไม้', 'สีแดง', 'แพ็ก 5 แผ่น', 'แพ็ก 10 ใบ', 'ลายคริสต์มาส', 'สีทอง'],
    unit: 'ชิ้น',
  },
];

export interface DemoBrand {
  code: string;
  name: string;
  nameTh: string;
  description: string;
}

export const demoBrands: DemoBrand[] = [
  { code: 'sweet-bloom', name: 'Sweet Bloom', nameTh: 'สวีท บลูม', description: 'ของขวัญและดอกไม้ประดิษฐ์' },
  { code: 'glow-lab', name: 'Glow Lab', nameTh: 'โกลว์ แล็บ', description: 'สกินแคร์สูตรอ่อนโยน' },
  { code: 'moji', name: 'Moji', nameTh: 'โมจิ', description: 'เครื่องสำอางสีสวยสไตล์เกาหลี' },
  { code: 'lumiere', name: 'Lumière', nameTh: 'ลูมิแยร์', description: 'น้ำหอมและเทียนหอม' },
  { code: 'paper-joy', name: 'Paper Joy', nameTh: 'เปเปอร์ จอย', description: 'เครื่องเขียนน่ารัก' },
  { code: 'charm-co', name: 'Charm & Co', nameTh: 'ชาร์ม แอนด์ โค', description: 'เครื่องประดับแฟชั่น' },
  { code: 'siam-craft', name: 'Siam Craft', nameTh: 'สยามคราฟต์', description: 'งานฝีมือไทยและของชำร่วย' },
  { code: 'happy-party', name: 'Happy Party', nameTh: 'แฮปปี้ ปาร์ตี้', description: 'อุปกรณ์ปาร์ตี้ครบวงจร' },
  { code: 'lanna-silk', name: 'Lanna Silk', nameTh: 'ล้านนา ซิลค์', description: 'ผ้าไทยและกระเป๋าทอมือ' },
  { code: 'kawaii-box', name: 'Kawaii Box', nameTh: 'คาวาอี้ บ็อกซ์', description: 'ตุ๊กตาและของขวัญสุดน่ารัก' },
  { code: 'aroma-thai', name: 'Aroma Thai', nameTh: 'อโรมา ไทย', description: 'สมุนไพรและกลิ่นหอมแบบไทย' },
  { code: 'minty', name: 'Minty', nameTh: 'มินตี้', description: 'ของแต่งบ้านสไตล์มินิมอล' },
];

/** Which brands sell in which category (by index into demoBrands). */
const brandsByCategory: Record<string, number[]> = {
  gifts: [0, 9, 11],
  skincare: [1, 10],
  makeup: [2, 1],
  perfume: [3, 10],
  stationery: [4],
  accessories: [5, 8],
  jewellery: [5, 0],
  bags: [8, 5, 11],
  'party-favours': [6, 10, 7],
  'party-supplies': [7],
  dolls: [9, 0],
  home: [11, 3, 10],
  'cards-wrapping': [4, 0, 7],
};

/** Small, fast, seedable PRNG (mulberry32): deterministic demo data. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

/** Thai-style prices: 59, 129, 290, 1,290. */
function shopPrice(random: () => number, [low, high]: [number, number]): number {
  const raw = low + random() * (high - low);
  if (raw < 100) return Math.max(9, Math.round(raw / 10) * 10 - 1);
  if (raw < 1000) return Math.round(raw / 10) * 10 - (random() < 0.5 ? 1 : 10);
  return Math.round(raw / 100) * 100 - 10;
}

export interface DemoProduct {
  code: string;
  name: string;
  nameEn: string;
  description: string;
  categoryCode: string;
  brandCode: string | null;
  priceSatang: number;
  stock: number;
  unit: string;
  recommended: boolean;
  tiers: { minQuantity: number; priceSatang: number }[];
  images: string[];
  createdAt: Date;
}

export function productCode(index: number): string {
  return `P${String(index + 1).padStart(5, '0')}`;
}

/** The category's item a product's name is made of ("ลิปสติกเนื้อแมตต์ สีส้มพีช" → "ลิปสติกเนื้อแมตต์"), the longest that fits. */
export function demoItemOf(category: DemoCategory, name: string): string | undefined {
  return category.items.filter((item) => name === item || name.startsWith(`${item} `)).sort((a, b) => b.length - a.length)[0];
}

/** The drawing of a product named so in this category: its item's own, else the category's. */
function drawingFor(category: DemoCategory, name: string): ImageKind {
  const item = demoItemOf(category, name);
  return (item && category.itemImages?.[item]) || category.image;
}

/**
 * The product under another name (demoRenames gives a unique one), its description and drawing following
 * the name: a lipstick renamed "พาเลตต์อายแชโดว์ …" is drawn as a palette.
 */
export function renamedDemoProduct(product: DemoProduct, name: string): DemoProduct {
  const category = demoCategories.find((entry) => entry.code === product.categoryCode);
  const drawing = category ? drawingFor(category, name) : null;
  return {
    ...product,
    name,
    description: product.description.replace(product.name, name),
    images: drawing ? product.images.map((url) => url.replace(/^\/images\/demo\/[a-z]+-/, `/images/demo/${drawing}-`)) : product.images,
  };
}

/** Demo product number `index` (0-based). Pure: the same index always gives the same product. */
export function demoProduct(index: number, epoch: Date): DemoProduct {
  const random = rng(index * 7919 + 17);
  const category = demoCategories[index % demoCategories.length] as DemoCategory;
  const item = pick(random, category.items);
  const variant = pick(random, category.variants);
  const brandIndexes = brandsByCategory[category.code] ?? [];
  const brand = random() < 0.9 && brandIndexes.length > 0 ? demoBrands[pick(random, brandIndexes)] : undefined;
  const code = productCode(index);
  const price = shopPrice(random, category.priceRange);
  const wholesale = category.code === 'party-favours' || category.code === 'cards-wrapping' ? random() < 0.9 : random() < 0.35;
  const tiers: DemoProduct['tiers'] = [];
  if (wholesale) {
    const first = pick(random, [6, 10, 12, 20]);
    const second = first * pick(random, [5, 8, 10]);
    tiers.push({ minQuantity: first, priceSatang: Math.max(100, Math.round(price * 0.85) * 100 - 100) });
    tiers.push({ minQuantity: second, priceSatang: Math.max(100, Math.round(price * 0.72) * 100 - 100) });
  }
  const soldOut = random() < 0.08;
  const stock = soldOut ? 0 : 5 + Math.floor(random() * (wholesale ? 2000 : 240));
  const imageCount = 1 + Math.floor(random() * 4);
  const drawing = drawingFor(category, item);
  const images = Array.from({ length: imageCount }, (_, n) => `/images/demo/${drawing}-${code}-${n + 1}.svg`);
  const name = `${item} ${variant}`;
  const brandLine = brand ? `จากแบรนด์ ${brand.name} (${brand.nameTh}) ` : '';
  const description = [
    `${name} ${brandLine}คัดสรรมาเพื่อเป็น${category.name}ที่ถูกใจทั้งผู้ให้และผู้รับ`,
    tiers.length > 0
      ? `สั่งจำนวนมากได้ราคาส่ง เหมาะสำหรับงานเลี้ยง งานบริษัท และงานมงคล`
      : `เหมาะสำหรับใช้เองหรือมอบเป็นของขวัญในโอกาสพิเศษ`,
    `จัดส่งทั่วประเทศ เลือกห่อของขวัญและเขียนการ์ดอวยพรได้ตอนสั่งซื้อ`,
  ].join('\n\n');
  // Spread creation over the year before the epoch, newest with the highest index.
  const createdAt = new Date(epoch.getTime() - (100_000 - Math.min(index, 99_999)) * 3_600_000 / 8 - Math.floor(random() * 3_600_000));
  return {
    code,
    name,
    nameEn: `${category.nameEn} item ${code}`,
    description,
    categoryCode: category.code,
    brandCode: brand?.code ?? null,
    priceSatang: price * 100,
    stock,
    unit: category.unit,
    recommended: random() < 0.15,
    tiers,
    images,
    createdAt,
  };
}

export const demoCompany = {
  code: 'main',
  name: 'ร้านยิ้มละไม กิฟต์ช็อป',
  nameEn: 'Yimlamai Gift Shop',
  tagline: 'ของขวัญ เครื่องสำอาง เครื่องเขียน และของชำร่วย ราคาปลีกและส่ง',
  phone: '081-234-5678',
  email: 'hello@yimlamai.shop',
  facebookUrl: 'https://www.facebook.com/yimlamai.giftshop',
  lineId: '@yimlamai',
  mapUrl: 'https://www.google.com/maps/search/?api=1&query=13.7279,100.5241',
  address: '123/45 ถนนพระรามที่ 4 แขวงสุริยวงศ์ เขตบางรัก กรุงเทพมหานคร 10500',
  openingHours: 'เปิดทุกวัน 09:00–20:00 น. (ปิดวันสงกรานต์)',
  taxId: '0105566123456',
  promptpayId: '0812345678',
  bankAccounts: [
    { bank: 'ธนาคารกสิกรไทย', accountNo: '123-4-56789-0', accountName: 'บจก. ยิ้มละไม กิฟต์ช็อป', branch: 'สาขาสามย่าน' },
    { bank: 'ธนาคารไทยพาณิชย์', accountNo: '987-6-54321-0', accountName: 'บจก. ยิ้มละไม กิฟต์ช็อป', branch: 'สาขาสีลม' },
  ],
  deliveryOptions: [
    { code: 'ems', name: 'ไปรษณีย์ไทย EMS', feeSatang: 5000, days: '1–2 วันทำการ', trackingUrl: 'https://track.thailandpost.co.th/?trackNumber={tracking}' },
    { code: 'kerry', name: 'Kerry Express', feeSatang: 4500, days: '1–2 วันทำการ', trackingUrl: 'https://th.kex-express.com/th/track/?track={tracking}' },
    { code: 'flash', name: 'Flash Express', feeSatang: 3500, days: '2–3 วันทำการ', trackingUrl: 'https://www.flashexpress.co.th/fle/tracking?se={tracking}' },
    { code: 'pickup', name: 'รับเองที่หน้าร้าน', feeSatang: 0, days: 'พร้อมรับภายใน 1 วัน', trackingUrl: null },
  ],
  freeShippingMinSatang: 150_000,
  paymentMethods: { promptpay: true, bankTransfer: true, cod: true },
  orderExpiryHours: 24,
  quotationValidDays: 30,
  pickupAddress: 'หน้าร้านยิ้มละไม ชั้น 1 อาคารเลขที่ 123/45 ถนนพระรามที่ 4 แขวงสุริยวงศ์ เขตบางรัก กรุงเทพมหานคร 10500 (ใกล้ MRT สามย่าน ทางออก 2)',
  pickupHours: 'จันทร์–เสาร์ 10:00–19:00 น. (หยุดวันอาทิตย์และวันหยุดนักขัตฤกษ์)',
  autoDeliverDays: 7,
  giftWrapOptions: [
    { code: 'kraft', name: 'ห่อกระดาษคราฟต์', priceSatang: 3000, active: true },
    { code: 'giftbox', name: 'กล่องของขวัญ', priceSatang: 7900, active: true },
    { code: 'cloth', name: 'ถุงผ้าลายดอก', priceSatang: 4500, active: false },
  ],
  giftCardPriceSatang: 0,
};

const DAY = 86_400_000;

export function demoPromotions(now: Date) {
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  return [
    { code: 'WELCOME10', name: 'สมาชิกใหม่ลด 10%', description: 'ลด 10% เมื่อช้อปครบ ฿300 สูงสุด ฿200', discountType: 'percent' as const, discountValue: 10, minOrderSatang: 30_000, maxDiscountSatang: 20_000, startsAt: at(-10), endsAt: at(60), usageLimit: 1000, usedCount: 12, perMemberLimit: 1, firstOrderOnly: true, categories: [] as string[] },
    { code: 'GIFT50', name: 'ช้อปของขวัญครบ ฿500 ลด ฿50', description: 'ส่วนลดทันที ฿50 สำหรับหมวดของขวัญและตุ๊กตา', discountType: 'fixed' as const, discountValue: 5_000, minOrderSatang: 50_000, maxDiscountSatang: null, startsAt: at(-3), endsAt: at(30), usageLimit: null, usedCount: 0, categories: ['gifts', 'dolls'] },
    { code: 'PARTY15', name: 'ของชำร่วยลด 15%', description: 'เตรียมงานแต่งงานและงานมงคล ของชำร่วยลด 15% เมื่อสั่งครบ ฿1,000', discountType: 'percent' as const, discountValue: 15, minOrderSatang: 100_000, maxDiscountSatang: 100_000, startsAt: at(-1), endsAt: at(14), usageLimit: 200, usedCount: 3, categories: ['party-favours'] },
    { code: 'NEWYEAR2027', name: 'ต้อนรับปีใหม่ 2570', description: 'ส่วนลด 12% ทุกหมวดสินค้า', discountType: 'percent' as const, discountValue: 12, minOrderSatang: 0, maxDiscountSatang: 30_000, startsAt: at(20), endsAt: at(45), usageLimit: null, usedCount: 0, categories: [] },
    { code: 'SONGKRAN', name: 'สงกรานต์ชื่นใจ', description: 'น้ำหอมและสกินแคร์ลด 20%', discountType: 'percent' as const, discountValue: 20, minOrderSatang: 0, maxDiscountSatang: null, startsAt: at(-220), endsAt: at(-200), usageLimit: null, usedCount: 57, categories: ['perfume', 'skincare'] },
    { code: 'FLASH99', name: 'แฟลชเซล ลด ฿99', description: 'สิทธิ์จำกัด 5 ท่านแรก', discountType: 'fixed' as const, discountValue: 9_900, minOrderSatang: 59_900, maxDiscountSatang: null, startsAt: at(-2), endsAt: at(5), usageLimit: 5, usedCount: 5, categories: [] },
  ];
}

export const demoGalleries = [
  { code: 'wedding-favours', title: 'ของชำร่วยงานแต่งคุณมิ้นท์ & คุณต้น', description: 'ถุงหอมสมุนไพรสกรีนชื่อ 300 ชิ้น พร้อมการ์ดขอบคุณ', images: 8 },
  { code: 'corporate-newyear', title: 'ของขวัญปีใหม่องค์กร', description: 'ชุดของขวัญสำหรับลูกค้าองค์กร ห่อด้วยผ้าไทย', images: 6 },
  { code: 'birthday-party', title: 'ปาร์ตี้วันเกิดธีมยูนิคอร์น', description: 'ลูกโป่ง ป้าย และของแจกแขกในงาน', images: 7 },
  { code: 'our-shop', title: 'บรรยากาศหน้าร้าน', description: 'แวะมาเลือกของขวัญด้วยตัวเองได้ทุกวัน', images: 5 },
];

export const demoRecruitments = [
  { title: 'พนักงานแพ็กสินค้า', description: 'แพ็กและตรวจสอบสินค้าก่อนจัดส่ง ละเอียด รอบคอบ ทำงานเป็นทีมได้', location: 'บางรัก กรุงเทพฯ', employmentType: 'เต็มเวลา', salary: '12,000–15,000 บาท', open: true },
  { title: 'แอดมินเพจและตอบแชตลูกค้า', description: 'ตอบแชต Facebook และ LINE ดูแลคำสั่งซื้อออนไลน์ พิมพ์ไทยคล่อง', location: 'ทำงานที่ร้าน / บางวันทำจากบ้าน', employmentType: 'เต็มเวลา', salary: '15,000–18,000 บาท', open: true },
  { title: 'นักศึกษาฝึกงานกราฟิก', description: 'ออกแบบแบนเนอร์และภาพสินค้า ใช้ Figma หรือ Illustrator ได้', location: 'บางรัก กรุงเทพฯ', employmentType: 'ฝึกงาน', salary: 'เบี้ยเลี้ยงรายวัน', open: false },
];

/** Fixed reference time for demo product dates, so a reseed gives the same "new arrivals". */
export const demoEpoch = new Date('2026-11-01T03:00:00Z');

/**
 * The demo shop's search synonyms (docs/decisions/179): every category's Thai words and the English
 * words a shopper types for them, each pair found both ways. Staff keep the list at /admin/search.
 */
export const demoSynonyms: readonly (readonly [string, string])[] = [
  // gifts
  ['gift', 'ของขวัญ'], ['present', 'ของขวัญ'], ['gift box', 'กล่องของขวัญ'], ['mug', 'แก้วมัค'], ['photo frame', 'กรอบรูป'], ['lamp', 'โคมไฟ'], ['music box', 'กล่องดนตรี'], ['cushion', 'หมอนอิง'],
  // skincare
  ['skincare', 'สกินแคร์'], ['skin care', 'สกินแคร์'], ['serum', 'เซรั่ม'], ['cream', 'ครีม'], ['lotion', 'โลชั่น'], ['face mask', 'มาส์กหน้า'], ['sunscreen', 'กันแดด'], ['toner', 'โทนเนอร์'], ['cleanser', 'โฟมล้างหน้า'],
  // makeup
  ['makeup', 'เครื่องสำอาง'], ['cosmetics', 'เครื่องสำอาง'], ['lipstick', 'ลิปสติก'], ['lip', 'ลิป'], ['lip tint', 'ลิปทินท์'], ['lip balm', 'ลิปบาล์ม'], ['blush', 'บลัชออน'], ['eyeshadow', 'อายแชโดว์'], ['mascara', 'มาสคาร่า'], ['eyebrow pencil', 'ดินสอเขียนคิ้ว'],
  // perfume
  ['perfume', 'น้ำหอม'], ['fragrance', 'น้ำหอม'], ['body mist', 'บอดี้มิสต์'], ['roll on', 'โรลออน'], ['scent', 'กลิ่น'],
  // stationery
  ['stationery', 'เครื่องเขียน'], ['pen', 'ปากกา'], ['notebook', 'สมุด'], ['sticker', 'สติกเกอร์'], ['highlighter', 'ปากกาไฮไลต์'], ['planner', 'แพลนเนอร์'], ['washi tape', 'เทปตกแต่งวาชิ'], ['pencil case', 'กล่องดินสอ'],
  // accessories
  ['accessories', 'เครื่องประดับแฟชั่น'], ['hair clip', 'กิ๊บ'], ['scrunchie', 'ยางรัดผม'], ['headband', 'ที่คาดผม'], ['keychain', 'พวงกุญแจ'], ['phone strap', 'สายคล้องโทรศัพท์'], ['earrings', 'ต่างหู'], ['sunglasses', 'แว่นกันแดด'],
  // jewellery
  ['jewellery', 'จิวเวลรี่'], ['jewelry', 'จิวเวลรี่'], ['necklace', 'สร้อยคอ'], ['ring', 'แหวน'], ['bracelet', 'สร้อยข้อมือ'], ['bangle', 'กำไล'], ['pendant', 'จี้'],
  // bags
  ['bag', 'กระเป๋า'], ['tote bag', 'กระเป๋าผ้า'], ['wallet', 'กระเป๋าสตางค์'], ['coin purse', 'กระเป๋าใส่เหรียญ'], ['makeup pouch', 'กระเป๋าเครื่องสำอาง'], ['crossbody bag', 'กระเป๋าสะพายข้าง'],
  // party favours
  ['souvenir', 'ของชำร่วย'], ['party favour', 'ของชำร่วย'], ['wedding favor', 'ของชำร่วยงานแต่งงาน'], ['soap', 'สบู่'], ['fridge magnet', 'แม่เหล็กติดตู้เย็น'], ['sachet', 'ถุงหอม'],
  // party supplies
  ['party', 'ปาร์ตี้'], ['balloon', 'ลูกโป่ง'], ['birthday', 'วันเกิด'], ['birthday candle', 'เทียนวันเกิด'], ['party hat', 'หมวกปาร์ตี้'], ['paper plate', 'จานกระดาษ'],
  // dolls
  ['doll', 'ตุ๊กตา'], ['plush', 'ตุ๊กตา'], ['teddy bear', 'ตุ๊กตาหมี'], ['rabbit', 'กระต่าย'], ['bunny', 'กระต่าย'], ['elephant', 'ช้าง'], ['dinosaur', 'ไดโนเสาร์'],
  // home
  ['home decor', 'ของแต่งบ้าน'], ['scented candle', 'เทียนหอม'], ['reed diffuser', 'ก้านไม้หอม'], ['vase', 'แจกัน'], ['wall clock', 'นาฬิกาแขวนผนัง'], ['sofa cover', 'ผ้าคลุมโซฟา'],
  // cards and wrapping
  ['card', 'การ์ด'], ['greeting card', 'การ์ดอวยพร'], ['wrapping paper', 'กระดาษห่อของขวัญ'], ['gift wrap', 'ห่อของขวัญ'], ['ribbon', 'ริบบิ้น'], ['paper bag', 'ถุงกระดาษ'],
];
