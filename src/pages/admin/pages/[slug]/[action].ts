import { checkbox, adminForm, parseWith, textFields } from '../../../../server/admin/forms';
import { notFound } from '../../../../server/http/errors';
import { restorePageVersion, savePage, unpublishPage } from '../../../../server/content/pages.service';
import { pageDraftSchema, pageSlugSchema } from '../../../../lib/content-schemas';
import { serialId } from '../../../../lib/row-id';

/** The page editor's form actions: save (draft or publish), unpublish, restore. */
export const POST = adminForm(
  'pages',
  (context) => `/admin/pages/${encodeURIComponent(context.params.slug ?? '')}`,
  async ({ context, actor, form }) => {
    const slug = parseWith(pageSlugSchema, context.params.slug ?? '');
    const back = `/admin/pages/${slug}`;
    switch (context.params.action) {
      case 'save': {
        const fields = textFields(form);
        const draft = parseWith(pageDraftSchema, { ...fields, inFooter: checkbox(form, 'inFooter') });
        const publish = fields.intent === 'publish';
        await savePage(actor, slug, draft, publish);
        return { message: publish ? 'เผยแพร่แล้ว ลูกค้าเห็นเนื้อหาใหม่ทันที' : 'บันทึกร่างแล้ว (ลูกค้ายังไม่เห็นจนกว่าจะกด เผยแพร่)', redirect: back };
      }
      case 'unpublish':
        await unpublishPage(actor, slug);
        return { message: 'ซ่อนหน้านี้จากหน้าร้านแล้ว', redirect: back };
      case 'restore': {
        const versionId = serialId(form.get('versionId'));
        if (versionId === null) throw notFound('page_version_not_found', 'ไม่พบฉบับที่ต้องการกู้คืน');
        await restorePageVersion(actor, slug, versionId);
        return { message: 'กู้คืนฉบับเดิมเข้าร่างแล้ว ตรวจดูตัวอย่างแล้วกด เผยแพร่', redirect: back };
      }
      default:
        throw notFound();
    }
  },
);
