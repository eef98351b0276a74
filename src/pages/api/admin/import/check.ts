import { adminForm } from '../../../../server/admin/forms';
import { dryRunImport, expireCheckedImports, keepImportFile, WINDOWS_874_NOTE } from '../../../../server/catalog-admin/csv-import.service';
import { saveImportReport } from '../../../../server/catalog-admin/import-reports';
import { badRequest } from '../../../../server/http/errors';

/**
 * Step 1 of an import: the file is kept privately and checked without changing anything. The page then
 * shows every bad row (line and Thai reason) and what applying would create and update. Files checked
 * more than a day ago and never applied are deleted here.
 */
export const POST = adminForm('import', () => '/admin/import', async ({ form }) => {
  const file = form.get('file');
  if (!(file instanceof File) || file.size === 0) throw badRequest('csv_missing', 'กรุณาเลือกไฟล์ CSV');
  const bytes = new Uint8Array(await file.arrayBuffer());
  await expireCheckedImports();
  const report = await dryRunImport(bytes);
  const token = await keepImportFile(bytes);
  await saveImportReport(token, { stage: 'checked', fileName: file.name.slice(0, 200), report });
  const location = `/admin/import?file=${token}`;
  return {
    message: `ตรวจไฟล์แล้ว: ${report.rows.toLocaleString('th-TH')} แถว มีปัญหา ${report.errors.length.toLocaleString('th-TH')} แถว${report.encoding === 'windows-874' ? ` ${WINDOWS_874_NOTE}` : ''}`,
    redirect: location,
    data: { token, location, report },
  };
});
