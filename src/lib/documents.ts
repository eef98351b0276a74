import { z } from './zod.ts';

/**
 * The shop's paperwork as both sides see it (docs/design.md section 14): the receipt / abbreviated tax invoice
 * of every paid order, the full tax invoice a buyer asks for, and the request schemas. Pure code.
 */
export const HEAD_OFFICE = '00000';

export interface TaxInvoiceView {
  buyerName: string;
  buyerAddress: string;
  buyerTaxId: string;
  /** 00000 for สำนักงานใหญ่, else the branch's five digits. */
  buyerBranch: string;
  invoiceNo: string | null;
  issuedAt: string | null;
}

export interface OrderDocumentsView {
  receiptNo: string | null;
  receiptIssuedAt: string | null;
  taxInvoice: TaxInvoiceView | null;
}

export function branchLabel(branch: string): string {
  return branch === HEAD_OFFICE ? 'สำนักงานใหญ่' : `สาขาที่ ${branch}`;
}

/** The 13-digit Thai tax id check digit (mod 11), as the Revenue Department defines it. */
export function validThaiTaxId(id: string): boolean {
  if (!/^\d{13}$/.test(id)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(id[i]) * (13 - i);
  return (11 - (sum % 11)) % 10 === Number(id[12]);
}

export const taxInvoiceRequestSchema = z
  .object({
    name: z.string({ error: 'กรุณากรอกชื่อบริษัทหรือชื่อผู้ซื้อ' }).trim().min(2, 'กรุณากรอกชื่อบริษัทหรือชื่อผู้ซื้อ').max(200, 'ชื่อยาวเกินไป'),
    address: z.string({ error: 'กรุณากรอกที่อยู่สำหรับออกใบกำกับภาษี' }).trim().min(10, 'กรุณากรอกที่อยู่สำหรับออกใบกำกับภาษีให้ครบ').max(500, 'ที่อยู่ยาวเกินไป'),
    tax_id: z
      .string({ error: 'กรุณากรอกเลขประจำตัวผู้เสียภาษี 13 หลัก' })
      .trim()
      .transform((value) => value.replace(/[\s-]/g, ''))
      .refine(validThaiTaxId, 'เลขประจำตัวผู้เสียภาษีต้องเป็นตัวเลข 13 หลักที่ถูกต้อง'),
    branch_type: z.enum(['head_office', 'branch'], { error: 'กรุณาเลือกสำนักงานใหญ่หรือสาขา' }).default('head_office'),
    branch_no: z.string().trim().optional(),
  })
  .transform((value, context) => {
    if (value.branch_type === 'head_office') return { name: value.name, address: value.address, taxId: value.tax_id, branch: HEAD_OFFICE };
    const branch = (value.branch_no ?? '').replace(/\D/g, '');
    if (!/^\d{1,5}$/.test(branch) || Number(branch) === 0) {
      context.addIssue({ code: 'custom', path: ['branch_no'], message: 'กรุณากรอกเลขที่สาขา 5 หลัก เช่น 00001' });
      return z.NEVER;
    }
    return { name: value.name, address: value.address, taxId: value.tax_id, branch: branch.padStart(5, '0') };
  });
export type TaxInvoiceRequest = z.output<typeof taxInvoiceRequestSchema>;
