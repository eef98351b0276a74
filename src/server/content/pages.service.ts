import { eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { contentPages } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { invalidateCatalog, onCatalogChange } from '../catalog/catalog-cache.ts';
import { keptValue } from '../cache/kept-value.ts';
import { getCompany } from '../company/company.service.ts';
import { ALWAYS_LINKED_PAGES, BUILT_IN_PAGES, pagePath, type PageDraft } from '../../lib/content-schemas.ts';
import { fillCompanyText } from './company-text.ts';
import { renderMarkdown } from './markdown.ts';
import { addVersion, allPages, pageBySlug, publishedPages, versionById, versionsOf, type PageRow, type VersionRow, type VersionWithAuthor } from './pages.repo.ts';
import { seedPages } from './page-seed.ts';

/**
 * Content pages (docs/design.md section 12): editors keep a draft, publish it, and restore earlier versions.
 * Every change writes a version row and an audit row in the same transaction, and a publish drops the
 * cached shop pages (invalidateCatalog({ content: true }), on every instance once issue 14's bus lands).
 */

export interface PublishedPage {
  slug: string;
  path: string;
  title: string;
  description: string;
  html: string;
  inFooter: boolean;
  sortOrder: number;
  publishedAt: Date;
}

export interface AdminPageSummary {
  slug: string;
  path: string;
  title: string;
  inFooter: boolean;
  builtIn: boolean;
  published: boolean;
  /** The draft differs from what shoppers see. */
  unpublishedChanges: boolean;
  publishedAt: string | null;
  updatedAt: string;
}

export interface AdminPage extends AdminPageSummary {
  description: string;
  body: string;
}

export interface PageVersion {
  id: number;
  kind: VersionRow['kind'];
  title: string;
  /** A person's name as the history shows it: never an email address or a path. */
  author: string;
  createdAt: string;
  bodyLength: number;
}

let seeding: Promise<void> | undefined;

/**
 * Copies src/content/pages/*.md into an empty table once; concurrent instances meet on the unique slug.
 * A shop that already has pages gets only the built-in pages it lacks (issue 29 added privacy and
 * terms); a page that exists is never touched again.
 */
export function ensurePagesSeeded(): Promise<void> {
  seeding ??= (async () => {
    const db = await getDb();
    const order = BUILT_IN_PAGES as readonly string[];
    const existing = new Set((await allPages(db)).map((row) => row.slug));
    const missing = seedPages().filter((page) => (existing.size === 0 ? true : order.includes(page.slug)) && !existing.has(page.slug));
    if (missing.length === 0) return;
    await db.transaction(async (tx) => {
      for (const page of missing) {
        const [row] = await tx
          .insert(contentPages)
          .values({
            slug: page.slug,
            title: page.title,
            description: page.description,
            body: page.body,
            inFooter: !ALWAYS_LINKED_PAGES.includes(page.slug),
            sortOrder: order.includes(page.slug) ? order.indexOf(page.slug) : order.length,
            publishedTitle: page.title,
            publishedDescription: page.description,
            publishedBody: page.body,
            publishedAt: new Date(),
          })
          .onConflictDoNothing({ target: contentPages.slug })
          .returning({ id: contentPages.id });
        if (row) await addVersion(tx, { pageId: row.id, kind: 'seed', title: page.title, description: page.description, body: page.body, authorId: null, authorEmail: '' });
      }
    });
  })().catch((error: unknown) => {
    seeding = undefined;
    throw error;
  });
  return seeding;
}

const isBuiltIn = (slug: string) => (BUILT_IN_PAGES as readonly string[]).includes(slug);

function toSummary(row: PageRow): AdminPageSummary {
  return {
    slug: row.slug,
    path: pagePath(row.slug),
    title: row.title,
    inFooter: row.inFooter,
    builtIn: isBuiltIn(row.slug),
    published: row.publishedAt !== null,
    unpublishedChanges:
      row.publishedAt === null ||
      row.publishedBody !== row.body ||
      row.publishedTitle !== row.title ||
      row.publishedDescription !== row.description,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

// ── the shop's side (read through the live collection in src/live.config.ts) ──

async function toPublished(row: PageRow, withHtml = true): Promise<PublishedPage> {
  const company = await getCompany();
  return {
    slug: row.slug,
    path: pagePath(row.slug),
    title: fillCompanyText(row.publishedTitle ?? row.title, company),
    description: fillCompanyText(row.publishedDescription ?? '', company),
    html: withHtml ? renderMarkdown(row.publishedBody ?? '', company) : '',
    inFooter: row.inFooter,
    sortOrder: row.sortOrder,
    publishedAt: row.publishedAt as Date,
  };
}

export async function publishedPage(slug: string): Promise<PublishedPage | null> {
  await ensurePagesSeeded();
  const row = await pageBySlug(await getDb(), slug.toLowerCase());
  if (!row || !row.publishedAt) return null;
  return toPublished(row);
}

/** Published pages in footer order; the bodies are rendered only when asked (links and the sitemap need none). */
async function readPublishedPages(onlyFooter: boolean, withHtml: boolean): Promise<PublishedPage[]> {
  await ensurePagesSeeded();
  const rows = await publishedPages(await getDb(), onlyFooter);
  return Promise.all(rows.map((row) => toPublished(row, withHtml)));
}

// The footer's links are on every page: kept until a change is announced (a publish, or a company
// record change, whose name the titles may carry), or for a minute.
const keptLists = { footer: keptValue(() => readPublishedPages(true, false), 60_000), all: keptValue(() => readPublishedPages(false, false), 60_000) };
onCatalogChange(() => {
  keptLists.footer.drop();
  keptLists.all.drop();
});

export async function listPublishedPages(options: { onlyFooter?: boolean; withHtml?: boolean } = {}): Promise<PublishedPage[]> {
  if (options.withHtml) return readPublishedPages(options.onlyFooter ?? false, true);
  return [...(await (options.onlyFooter ? keptLists.footer : keptLists.all).get())];
}

/** The footer's links when the pages cannot be read: the page still renders. */
export const fallbackFooterLinks: ReadonlyArray<{ href: string; label: string }> = [
  { href: '/aboutus', label: 'เกี่ยวกับเรา' },
  { href: '/howtoorder', label: 'วิธีการสั่งซื้อ' },
  { href: '/contact', label: 'ติดต่อเรา' },
  { href: '/address', label: 'ที่ตั้งร้าน' },
];

// ── the back office ──

export async function listPagesForAdmin(): Promise<AdminPageSummary[]> {
  await ensurePagesSeeded();
  return (await allPages(await getDb())).map(toSummary);
}

export async function pageForAdmin(slug: string): Promise<AdminPage> {
  await ensurePagesSeeded();
  const row = await pageBySlug(await getDb(), slug.toLowerCase());
  if (!row) throw notFound('page_not_found', 'ไม่พบหน้านี้');
  return { ...toSummary(row), description: row.description, body: row.body };
}

/**
 * Who wrote a version, as an editor calls them: the member's name now; the shop's starting text for the
 * first copy; the part of an old email before the @ when the member is gone (never a path like
 * "src/content", which versions written before issue 32 carry).
 */
export function authorName(version: Pick<VersionWithAuthor, 'kind' | 'authorEmail' | 'authorFirstName' | 'authorLastName'>): string {
  const name = [version.authorFirstName, version.authorLastName].filter(Boolean).join(' ').trim();
  if (name) return name;
  if (version.kind === 'seed') return 'เนื้อหาเริ่มต้นของร้าน';
  const at = version.authorEmail.indexOf('@');
  return at > 0 ? version.authorEmail.slice(0, at) : 'ไม่ทราบชื่อ';
}

export async function pageVersions(slug: string, page = 1, pageSize = 20): Promise<{ items: PageVersion[]; total: number; page: number; pageSize: number }> {
  const db = await getDb();
  const row = await pageBySlug(db, slug.toLowerCase());
  if (!row) throw notFound('page_not_found', 'ไม่พบหน้านี้');
  const { rows, total } = await versionsOf(db, row.id, pageSize, (page - 1) * pageSize);
  return {
    items: rows.map((version) => ({
      id: version.id,
      kind: version.kind,
      title: version.title,
      author: authorName(version),
      createdAt: version.createdAt.toISOString(),
      bodyLength: version.body.length,
    })),
    total,
    page,
    pageSize,
  };
}

export async function createPage(actor: AuditActor, input: { slug: string; title: string }): Promise<AdminPage> {
  await ensurePagesSeeded();
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contentPages)
      .values({ slug: input.slug, title: input.title, sortOrder: 100 })
      .onConflictDoNothing({ target: contentPages.slug })
      .returning();
    if (!row) throw badRequest('page_slug_taken', 'มีหน้านี้อยู่แล้ว กรุณาใช้ที่อยู่อื่น', { slug: 'มีหน้านี้อยู่แล้ว' });
    await addVersion(tx, { pageId: row.id, kind: 'draft', title: row.title, description: '', body: '', authorId: actor.id, authorEmail: actor.email });
    await recordAudit(tx, actor, { action: 'page.create', entityType: 'page', entityId: row.slug, after: { slug: row.slug, title: row.title } });
  });
  return pageForAdmin(input.slug);
}

const snapshot = (row: PageRow) => ({ title: row.title, description: row.description, body: row.body, inFooter: row.inFooter });
const publishedSnapshot = (row: PageRow) =>
  row.publishedAt ? { title: row.publishedTitle, description: row.publishedDescription, body: row.publishedBody, publishedAt: row.publishedAt } : null;

/** Saves the draft and, with `publish`, makes it what shoppers see. */
export async function savePage(actor: AuditActor, slug: string, draft: PageDraft, publish: boolean): Promise<AdminPage> {
  await ensurePagesSeeded();
  const db = await getDb();
  await db.transaction(async (tx) => {
    const row = await pageBySlug(tx, slug, true);
    if (!row) throw notFound('page_not_found', 'ไม่พบหน้านี้');
    const now = new Date();
    const values = {
      title: draft.title,
      description: draft.description,
      body: draft.body,
      inFooter: draft.inFooter,
      updatedAt: now,
      ...(publish ? { publishedTitle: draft.title, publishedDescription: draft.description, publishedBody: draft.body, publishedAt: now } : {}),
    };
    const [updated] = await tx.update(contentPages).set(values).where(eq(contentPages.id, row.id)).returning();
    await addVersion(tx, { pageId: row.id, kind: publish ? 'publish' : 'draft', title: draft.title, description: draft.description, body: draft.body, authorId: actor.id, authorEmail: actor.email });
    await recordAudit(tx, actor, {
      action: publish ? 'page.publish' : 'page.save_draft',
      entityType: 'page',
      entityId: slug,
      before: publish ? publishedSnapshot(row) : snapshot(row),
      after: publish ? publishedSnapshot(updated as PageRow) : snapshot(updated as PageRow),
    });
  });
  // The footer lists pages by their title and flag, so a draft save that moved a page in or out of the
  // footer needs the cached pages dropped too.
  await invalidateCatalog({ content: true });
  return pageForAdmin(slug);
}

export async function unpublishPage(actor: AuditActor, slug: string): Promise<AdminPage> {
  if (isBuiltIn(slug)) throw badRequest('page_built_in', 'หน้านี้เป็นหน้าหลักของร้าน ซ่อนไม่ได้ แก้ไขเนื้อหาแทนได้');
  const db = await getDb();
  await db.transaction(async (tx) => {
    const row = await pageBySlug(tx, slug, true);
    if (!row) throw notFound('page_not_found', 'ไม่พบหน้านี้');
    if (!row.publishedAt) return;
    await tx.update(contentPages).set({ publishedAt: null, updatedAt: new Date() }).where(eq(contentPages.id, row.id));
    await recordAudit(tx, actor, { action: 'page.unpublish', entityType: 'page', entityId: slug, before: publishedSnapshot(row), after: null });
  });
  await invalidateCatalog({ content: true });
  return pageForAdmin(slug);
}

/** Copies an earlier version into the draft; the editor publishes it when it looks right. */
export async function restorePageVersion(actor: AuditActor, slug: string, versionId: number): Promise<AdminPage> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const row = await pageBySlug(tx, slug, true);
    if (!row) throw notFound('page_not_found', 'ไม่พบหน้านี้');
    const version = await versionById(tx, row.id, versionId);
    if (!version) throw notFound('page_version_not_found', 'ไม่พบฉบับที่ต้องการกู้คืน');
    const [updated] = await tx
      .update(contentPages)
      .set({ title: version.title, description: version.description, body: version.body, updatedAt: new Date() })
      .where(eq(contentPages.id, row.id))
      .returning();
    await addVersion(tx, { pageId: row.id, kind: 'restore', title: version.title, description: version.description, body: version.body, authorId: actor.id, authorEmail: actor.email });
    await recordAudit(tx, actor, {
      action: 'page.restore',
      entityType: 'page',
      entityId: slug,
      before: snapshot(row),
      after: snapshot(updated as PageRow),
      note: `ฉบับที่ ${version.id}`,
    });
  });
  return pageForAdmin(slug);
}

/** The editor's live preview: the same renderer and sanitiser as the shop. */
export async function previewPage(body: string): Promise<string> {
  return renderMarkdown(body, await getCompany());
}
