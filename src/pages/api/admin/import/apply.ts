import type { APIRoute } from 'astro';
import { adminForm, wantsJson } from '../../../../server/admin/forms';
import { applyImport, forgetImportFile, importFile } from '../../../../server/catalog-admin/csv-import.service';
import { loadImportReport, saveImportReport } from '../../../../server/catalog-admin/import-reports';
import { auditActor, requireStaff } from '../../../../server/admin/guard';
import { readForm } from '../../../../server/http/body-limit';
import { AppError } from '../../../../server/http/errors';
import { toErrorResponse } from '../../../../server/http/responses';
import { log, errorFields } from '../../../../server/log';

/**
 * Step 2: apply a checked file in one transaction. The import page's island asks for NDJSON and gets a
 * line per thousand rows (`{"done":…,"total":…}`) and a last line with the result, so it can draw a
 * progress bar; a plain form post (no JavaScript) waits and is sent back to the page with the result.
 */
const formApply = adminForm('import', () => '/admin/import', async ({ actor, form }) => {
  const token = String(form.get('file') ?? '');
  const checked = await loadImportReport(token);
  const report = await applyImport(actor, await importFile(token));
  await saveImportReport(token, { stage: 'applied', fileName: checked?.fileName ?? '', report });
  await forgetImportFile(token);
  return {
    message: `นำเข้าแล้ว: เพิ่ม ${report.creates.toLocaleString('th-TH')} แก้ไข ${report.updates.toLocaleString('th-TH')} ไม่เปลี่ยน ${report.unchanged.toLocaleString('th-TH')} ข้าม ${report.errors.length.toLocaleString('th-TH')} รายการ`,
    redirect: `/admin/import?file=${token}`,
  };
});

export const POST: APIRoute = async (context) => {
  if (!/application\/x-ndjson/.test(context.request.headers.get('accept') ?? '') || !wantsJson(context.request)) return formApply(context);
  let actor;
  let token: string;
  let bytes: Uint8Array;
  let fileName = '';
  try {
    const staff = await requireStaff(context, 'import');
    actor = auditActor(staff, context);
    const form = await readForm(context.request);
    token = String(form.get('file') ?? '');
    bytes = await importFile(token);
    fileName = (await loadImportReport(token))?.fileName ?? '';
  } catch (error) {
    return toErrorResponse(error, context);
  }
  const total = (await loadImportReport(token))?.report.rows ?? 0;
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (value: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
      try {
        send({ done: 0, total });
        const report = await applyImport(actor, bytes, (done) => send({ done, total }));
        await saveImportReport(token, { stage: 'applied', fileName, report });
        await forgetImportFile(token);
        send({ result: { creates: report.creates, updates: report.updates, unchanged: report.unchanged, skipped: report.errors.length }, location: `/admin/import?file=${token}` });
      } catch (error) {
        if (!(error instanceof AppError)) log.error('import failed', errorFields(error));
        send({ error: error instanceof AppError ? error.message : 'นำเข้าไม่สำเร็จ ไม่มีข้อมูลใดถูกเปลี่ยน กรุณาลองใหม่อีกครั้ง' });
      } finally {
        controller.close();
      }
    },
  });
  return new Response(stream, { headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' } });
};
