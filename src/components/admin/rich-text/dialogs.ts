import { pictureDescriptionError } from '../../../lib/content-schemas';
import { isAllowedLink } from './extensions';

/**
 * The editor's two questions, in SweetAlert2 dialogs like the rest of the back office (loaded on first use):
 * a link's address (and its words when nothing is selected), and a picture with its Thai description.
 * The picture goes through the same upload as every back-office picture (/admin/uploads?folder=pages:
 * checked by content, stripped, decoded in the process's decode slots, stored as WebP).
 */

const QUIET = { showClass: { popup: '', backdrop: 'swal2-backdrop-show', icon: '' }, hideClass: { popup: '', backdrop: '', icon: '' } };

function field(id: string): HTMLInputElement {
  return document.getElementById(id) as HTMLInputElement;
}

/** Keeps the dialog open with the reason under the fields. */
function refuse(swal: { showValidationMessage: (message: string) => void }, message: string): false {
  swal.showValidationMessage(message);
  return false;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export async function askForLink(current: { href: string; needsText: boolean }): Promise<{ href: string; text: string } | null> {
  const { default: Swal } = await import('sweetalert2');
  const result = await Swal.fire<{ href: string; text: string }>({
    ...QUIET,
    title: current.href ? 'แก้ลิงก์' : 'ใส่ลิงก์',
    html: `
      <div class="text-start">
        ${current.needsText ? `<label class="form-label" for="link-text">ข้อความที่ลูกค้าเห็น</label>
        <input class="form-control mb-3" id="link-text" autocomplete="off">` : ''}
        <label class="form-label" for="link-href">ที่อยู่ลิงก์</label>
        <input class="form-control" id="link-href" inputmode="url" autocomplete="off" placeholder="https:// หรือ /product" value="${escapeAttribute(current.href)}">
        <div class="form-text">${current.href ? 'ลบที่อยู่ให้ว่างเพื่อเอาลิงก์ออก' : 'เช่น https://… หน้าในร้าน /product หรือ tel:0812345678'}</div>
      </div>`,
    focusConfirm: false,
    showCancelButton: true,
    confirmButtonText: 'ตกลง',
    cancelButtonText: 'ยกเลิก',
    didOpen: () => field(current.needsText ? 'link-text' : 'link-href').focus(),
    preConfirm: () => {
      const href = field('link-href').value.trim();
      const text = current.needsText ? field('link-text').value.trim() : '';
      if (current.needsText && !text) return refuse(Swal, 'กรุณาใส่ข้อความของลิงก์');
      if (!href && current.href) return { href: '', text };
      if (!isAllowedLink(href)) return refuse(Swal, 'ลิงก์ต้องขึ้นต้นด้วย https:// หรือ / (หน้าในร้าน)');
      return { href: href.replace(/[\s()]/g, (ch) => encodeURIComponent(ch)), text };
    },
  });
  return result.isConfirmed && result.value ? result.value : null;
}

export interface InsertedPicture {
  url: string;
  width: number;
  height: number;
  description: string;
}

export async function askForPicture(): Promise<InsertedPicture | null> {
  const { default: Swal } = await import('sweetalert2');
  const result = await Swal.fire<InsertedPicture>({
    ...QUIET,
    title: 'แทรกรูปภาพ',
    html: `
      <div class="text-start">
        <label class="form-label" for="picture-file">เลือกรูป (JPG, PNG หรือ WebP)</label>
        <input class="form-control mb-3" type="file" id="picture-file" accept="image/*" data-testid="picture-file">
        <label class="form-label" for="picture-description">คำอธิบายรูป (ภาษาไทย)</label>
        <input class="form-control" id="picture-description" maxlength="200" autocomplete="off" placeholder="เช่น หน้าร้านยามเช้า มีป้ายชื่อร้านสีเขียว">
        <div class="form-text">บอกว่าในรูปมีอะไร สำหรับลูกค้าที่มองไม่เห็นรูป (โปรแกรมอ่านหน้าจอจะอ่านข้อความนี้) ไม่ใช่ชื่อไฟล์</div>
      </div>`,
    focusConfirm: false,
    showCancelButton: true,
    confirmButtonText: 'แทรกรูป',
    cancelButtonText: 'ยกเลิก',
    showLoaderOnConfirm: true,
    allowOutsideClick: () => !Swal.isLoading(),
    preConfirm: async () => {
      const file = field('picture-file').files?.[0];
      if (!file) return refuse(Swal, 'กรุณาเลือกรูป');
      const description = field('picture-description').value.trim();
      const problem = pictureDescriptionError(description, file.name);
      if (problem) return refuse(Swal, problem);
      const form = new FormData();
      form.set('file', file);
      try {
        const response = await fetch('/admin/uploads?folder=pages', { method: 'POST', body: form });
        const json = (await response.json().catch(() => ({}))) as { data?: { url: string; width: number; height: number }; message?: string };
        if (!response.ok || !json.data) return refuse(Swal, json.message ?? 'อัปโหลดรูปไม่สำเร็จ ลองอีกครั้ง');
        return { ...json.data, description: description.replace(/[[\]]/g, '') };
      } catch {
        return refuse(Swal, 'อัปโหลดรูปไม่สำเร็จ ตรวจการเชื่อมต่อแล้วลองอีกครั้ง');
      }
    },
  });
  return result.isConfirmed && result.value ? result.value : null;
}
