import { auditActor } from '../../../../server/admin/guard';
import { checkbox, formEndpoint, parseWith, textFields } from '../../../../server/admin/content-forms';
import { notFound } from '../../../../server/http/errors';
import { restorePageVersion, savePage, unpublishPage } from '../../../../server/content/pages.service';
import { pageDraftSchema, pageSlugSchema } from '../../../../lib/content-schemas';

/** The page editor's form actions: save (draft or publish), unpublish, restore. */
export const POST = formEndpoint(
  'pages',
  async (context, form, staff) => {
    const slug = parseWith(pageSlugSchema, context.params.slug ?? '');
    const actor = auditActor(staff, context);
    const back = `/admin/pages/${slug}`;
    switch (context.params.action) {
      case 'save': {
        const fields = textFields(form);
        const draft = parseWith(pageDraftSchema, { ...fields, inFooter: checkbox(form, 'inFooter') });
        const publish = fields.intent === 'publish';
        await savePage(actor, slug, draft, publish);
        return { to: back, flash: { kind: 'success', text: publish ? 'เผยแพร่แล้ว ลูกค้าเห็นเนื้อหาใหม่ทันที' : 'บันทึกร่างแล้ว (ลูกค้ายังไม่เห็นจนกว่าจะกด เผยแพร่)' } };
      }
      case 'unpublish':
        await unpublishPage(actor, slug);
        return { to: back, flash: { kind: 'success', text: 'ซ่อนหน้านี้จากหน้าร้านแล้ว' } };
      case 'restore': {
        const versionId = Number(form.get('versionId'));
        if (!Number.isInteger(versionId) || versionId <= 0) throw notFound('page_version_not_found', 'ไม่พบฉบับที่ต้องการกู้คืน');
        await restorePageVersion(actor, slug, versionId);
        return { to: back, flash: { kind: 'success', text: 'กู้คืนฉบับเดิมเข้าร่างแล้ว ตรวจดูตัวอย่างแล้วกด เผยแพร่' } };
      }
      default:
        throw notFound();
    }
  },
  (context) => `/admin/pages/${encodeURIComponent(context.params.slug ?? '')}`,
);
