import { adminForm } from '../../../server/admin/forms';
import { addSynonym, removeSynonym } from '../../../server/catalog-admin/synonyms.service';
import { badRequest } from '../../../server/http/errors';
import { serialId } from '../../../lib/row-id';

/** Search synonyms (docs/decisions/179): `op=add` a pair (term, synonym), `op=remove` one by id; audited. */
export const POST = adminForm('catalog', () => '/admin/search', async ({ actor, form }) => {
  const op = form.get('op');
  if (op === 'add') {
    const added = await addSynonym(actor, form.get('term'), form.get('synonym'));
    return { message: `เพิ่มคู่คำ “${added.term}” ⇄ “${added.synonym}” แล้ว`, data: added };
  }
  if (op === 'remove') {
    const id = serialId(form.get('id'));
    if (id === null) throw badRequest('validation_failed', 'ไม่พบคู่คำที่จะลบ');
    const removed = await removeSynonym(actor, id);
    return { message: `ลบคู่คำ “${removed.term}” ⇄ “${removed.synonym}” แล้ว`, data: removed };
  }
  throw badRequest('validation_failed', 'คำสั่งไม่ถูกต้อง');
});
