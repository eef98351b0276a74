import raw from './thai-address-db.json' with { type: 'json' };

/**
 * Thai subdistricts (ตำบล/แขวง), districts (อำเภอ/เขต), provinces and postcodes from the
 * `thai-address-database` package's data (database/db.json of version 0.0.30, ISC licence, itself from
 * jquery.Thailand.js), kept in the repo so the shop needs no runtime download. The file is compacted:
 * a word dictionary and a lookup table, decoded here once at first use.
 */
export interface ThaiPlace {
  subdistrict: string;
  district: string;
  province: string;
  postcode: string;
}

type Compact = { data: unknown[]; lookup: string; words: string };
type Node = [string | number, unknown];

let places: ThaiPlace[] | undefined;
let index: Set<string> | undefined;

function decode(source: Compact): ThaiPlace[] {
  const lookup = source.lookup.split('|');
  const words = source.words.split('|');
  const text = (value: string | number): string => {
    const template = typeof value === 'number' ? (lookup[value] ?? '') : value;
    return template.replace(/[A-Z]/gi, (letter) => {
      const code = letter.charCodeAt(0);
      return words[code < 97 ? code - 65 : 26 + code - 97] ?? '';
    });
  };
  const out: ThaiPlace[] = [];
  for (const provinceNode of source.data as Node[]) {
    const province = text(provinceNode[0]);
    for (const districtNode of provinceNode[1] as Node[]) {
      const district = text(districtNode[0]);
      for (const subNode of districtNode[1] as Node[]) {
        const subdistrict = text(subNode[0]);
        const codes = Array.isArray(subNode[1]) ? (subNode[1] as unknown[]) : [subNode[1]];
        for (const code of codes) {
          // A few uninhabited islands have no postcode in the data: nobody can ship there.
          if (/^\d{5}$/.test(String(code))) out.push({ subdistrict, district, province, postcode: String(code) });
        }
      }
    }
  }
  return out;
}

export function allPlaces(): ThaiPlace[] {
  places ??= decode(raw as unknown as Compact);
  return places;
}

const keyOf = (place: ThaiPlace) => `${place.subdistrict}|${place.district}|${place.province}|${place.postcode}`;

/** Drops the prefixes people type (ต. ตำบล แขวง อ. อำเภอ เขต จ. จังหวัด) and extra spaces. */
export function cleanPlaceName(value: string): string {
  return value
    .normalize('NFC')
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(ตำบล|แขวง|ต\.|อำเภอ|เขต|อ\.|จังหวัด|จ\.)\s*/, '');
}

/** The canonical place when subdistrict, district, province and postcode belong together, else null. */
export function matchPlace(input: ThaiPlace): ThaiPlace | null {
  index ??= new Set(allPlaces().map(keyOf));
  let province = cleanPlaceName(input.province);
  if (/^(กรุงเทพ|กรุงเทพฯ|กทม\.?|กรุงเทพมหานคร)$/.test(province)) province = 'กรุงเทพมหานคร';
  const candidate: ThaiPlace = {
    subdistrict: cleanPlaceName(input.subdistrict),
    district: cleanPlaceName(input.district),
    province,
    postcode: input.postcode.trim(),
  };
  return index.has(keyOf(candidate)) ? candidate : null;
}

/**
 * Suggestions for the address form: by postcode (digits) or by the start of a subdistrict, district
 * or province name; exact subdistrict starts come first.
 */
export function searchPlaces(query: string, limit = 20): ThaiPlace[] {
  const q = cleanPlaceName(query);
  if (q.length === 0) return [];
  const all = allPlaces();
  if (/^\d+$/.test(q)) return all.filter((place) => place.postcode.startsWith(q)).slice(0, limit);
  const ranked: ThaiPlace[][] = [[], [], [], []];
  for (const place of all) {
    if (place.subdistrict.startsWith(q)) ranked[0]!.push(place);
    else if (place.district.startsWith(q)) ranked[1]!.push(place);
    else if (place.province.startsWith(q)) ranked[2]!.push(place);
    else if (place.subdistrict.includes(q)) ranked[3]!.push(place);
  }
  return ranked.flat().slice(0, limit);
}
