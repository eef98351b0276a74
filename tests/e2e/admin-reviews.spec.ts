import sharp from 'sharp';
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { seriousAxeViolations } from './axe';
import { grantRole } from './fixtures/roles';
import { deliverOrder, reviewableLine, setReviewApproval, withReviewApproval, withReviewQueue, writeReviewOf } from './fixtures/reviews';
import { keepScreenshot, projectContext } from './helpers';

/**
 * issue 31 part 3 in the browser: the owner opens the review queue (waiting reviews first), hides a
 * spam review with a reason after the SweetAlert2 confirmation, finds it in `ซ่อนอยู่` with the reason,
 * answers a published review whose text holds markup (shown as text), and approves the other waiting
 * one. On the shared e2e server: members buy, staff deliver, the members write the reviews and the owner
 * hides and answers, all through the shop's own endpoints, before the queue is opened in the browser.
 * The queue counts every waiting review of the shop, and "reviews need approval" is shop-wide, so the
 * steps that need either take their lock (tests/e2e/fixtures/reviews.ts, docs/decisions/230).
 */

const PASSWORD = 'Owner-Reviews-2569!';

/**
 * Products bought here, per project and attempt (a retry writes its reviews on products of its own, as
 * the product page's count of one review says): single-variant, well stocked, and read by no other spec.
 */
const PRODUCTS: Record<string, [string, string, string, string, string][]> = {
  desktop: [
    ['P00232', 'P00233', 'P00238', 'P00242', 'P00244'],
    ['P00265', 'P00274', 'P00275', 'P00277', 'P00279'],
  ],
  phone: [
    ['P00246', 'P00248', 'P00250', 'P00253', 'P00259'],
    ['P00285', 'P00289', 'P00294', 'P00299', 'P00235'],
  ],
};

interface Made {
  id: number;
  memberName: string;
  productCode: string;
  productName: string;
  body: string;
}

function origin(testInfo: TestInfo): string {
  return testInfo.project.use.baseURL!;
}

/** A new member signed in in a browser context made like the project's; `owner`: granted by the CLI. */
async function memberPage(browser: Browser, testInfo: TestInfo, firstName: string, lastName: string, role?: 'owner'): Promise<Page & { email: string }> {
  const context = await projectContext(browser, testInfo);
  const page = await context.newPage();
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const email = `${role ?? 'reviewer'}-reviews-${testInfo.project.name}-${stamp}@e2e.test`;
  const phone = `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const made = await page.request.post('/api/member-insert', {
    data: { firstName, lastName, email, phone, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true },
    headers: { Origin: origin(testInfo) },
  });
  expect(made.status(), await made.text()).toBe(201);
  if (role) await grantRole(email, role);
  return Object.assign(page, { email });
}

/** One delivered order of one piece of each product, for the member signed in on `page`. */
async function deliveredOrder(page: Page, owner: Page, testInfo: TestInfo, codes: string[]): Promise<void> {
  const address = await page.request.post('/api/user/addresses', {
    data: { recipientName: 'ผู้รีวิว ทดสอบ', phone: '0812345678', line1: '99/9 ถนนสุขุมวิท', subdistrict: 'คลองเตย', district: 'คลองเตย', province: 'กรุงเทพมหานคร', postcode: '10110' },
    headers: { Origin: origin(testInfo) },
  });
  expect(address.status(), await address.text()).toBe(201);
  const addressId = ((await address.json()) as { data: { id: string } }).data.id;
  const placed = await page.request.post('/api/orders', {
    data: {
      idempotency_key: `admin-reviews-${testInfo.project.name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
      lines: codes.map((code) => ({ product_code: code, amount: 1 })),
      address_id: addressId,
      delivery_code: 'kerry',
      payment_method: 'promptpay',
    },
    headers: { Origin: origin(testInfo) },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  await deliverOrder(owner.request, origin(testInfo), ((await placed.json()) as { data: { order_no: string } }).data.order_no);
}

async function productName(page: Page, code: string): Promise<string> {
  return ((await (await page.request.get(`/api/product/${code}`)).json()) as { data: { product_name: string } }).data.product_name;
}

async function photo(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360"><rect width="480" height="360" fill="hsl(${hue},70%,75%)"/><circle cx="240" cy="180" r="110" fill="hsl(${(hue + 40) % 360},60%,55%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** Sends a back-office form as a script does (JSON answer), as the owner signed in on `owner`. */
async function adminPost(owner: Page, testInfo: TestInfo, path: string, form: Record<string, string>): Promise<void> {
  const response = await owner.request.post(path, { form, headers: { Origin: origin(testInfo), Accept: 'application/json' } });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe('the review queue', { tag: '@phone' }, () => {
  const review = (page: Page, body: string) => page.getByTestId('review-queue').locator('li.review-card').filter({ hasText: body });

  async function confirmDialog(page: Page) {
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('คุณแน่ใจไหม ?')).toBeVisible();
    await dialog.getByRole('button', { name: 'ตกลง' }).click();
  }

  test('the owner hides a review with a reason, answers another and approves a third', async ({ browser }, testInfo) => {
    test.setTimeout(180_000);
    const phone = testInfo.project.name === 'phone';
    // Texts of this project and attempt: the queue's tabs list every project's reviews.
    const mark = testInfo.retry === 0 ? ` (${testInfo.project.name})` : ` (${testInfo.project.name}, retry ${testInfo.retry})`;
    const [publishedCode, hiddenCode, markedCode, spamCode, likedCode] = PRODUCTS[testInfo.project.name]![testInfo.retry % 2]!;
    const page = await memberPage(browser, testInfo, 'เจ้าของ', 'ร้านยิ้มละไม', 'owner');
    const buyer = await memberPage(browser, testInfo, 'สมชาย', 'สายรีวิว');
    const fan = await memberPage(browser, testInfo, 'น้ำฝน', 'รักสวย');
    await deliveredOrder(buyer, page, testInfo, [publishedCode!, hiddenCode!, markedCode!, spamCode!]);
    await deliveredOrder(fan, page, testInfo, [likedCode!]);

    async function write(member: Page, code: string, rating: number, body: string, photos?: Buffer[]): Promise<Made & { status: string }> {
      const written = await writeReviewOf(member, origin(testInfo), { line: await reviewableLine(member, code), rating, body, photos });
      const [first, last] = member === fan ? ['น้ำฝน', 'รักสวย'] : ['สมชาย', 'สายรีวิว'];
      return { id: written.id, status: written.status, memberName: `${first} ${last}`, productCode: code, productName: await productName(page, code), body };
    }

    // Published at once (the switch is off inside its lock): one to answer, one to hide, one with markup.
    const [published, shown, marked] = await withReviewApproval(async () => [
      await write(buyer, publishedCode!, 4, `ใช้ดีค่ะ กลิ่นหอมอ่อน ๆ ติดทนทั้งวัน\nแพ็กมาดีมาก${mark}`),
      await write(buyer, hiddenCode!, 1, `ไม่ดีเลย${mark}`),
      await write(buyer, markedCode!, 3, `<script>alert("xss")</script> สีตรงปก แต่ส่งช้าไปนิด${mark}`),
    ]);
    expect([published!.status, shown!.status, marked!.status]).toEqual(['published', 'published', 'published']);
    await adminPost(page, testInfo, `/admin/reviews/${published!.id}/answer`, { answer: 'ขอบคุณที่อุดหนุนนะคะ 😊' });
    await adminPost(page, testInfo, `/admin/reviews/${shown!.id}/hide`, { reason: 'รีวิวนี้ไม่เกี่ยวกับสินค้า' });

    await withReviewQueue(async () => {
      // Two waiting reviews, written while the switch is on: the spam, then (newest) the one with photos.
      const [spam, liked] = await withReviewApproval(async () => {
        await setReviewApproval(page.request, origin(testInfo), true);
        try {
          return [
            await write(buyer, spamCode!, 2, `สนใจสินค้าราคาส่ง โทร 081-234-5678 ทักไลน์ได้เลย${mark}`),
            await write(fan, likedCode!, 5, `ชอบมากค่ะ สีสวย เนื้อเนียน ทาแล้วไม่แห้ง จะกลับมาซื้ออีกแน่นอน${mark}`, [await photo(20), await photo(200)]),
          ];
        } finally {
          await setReviewApproval(page.request, origin(testInfo), false);
        }
      });
      expect([spam!.status, liked!.status]).toEqual(['pending', 'pending']);
      let queueEmptied = false;
      try {
        // The dashboard's to-do list counts the waiting reviews and opens them.
        await page.goto('/admin');
        const todo = page.getByTestId('waiting-card').filter({ has: page.locator('[data-count="รีวิวรอตรวจ"]') });
        await expect(todo.locator('[data-count="รีวิวรอตรวจ"]')).toHaveText('2');
        await keepScreenshot(page, `admin-reviews-dashboard-${testInfo.project.name}`, { fullPage: false });
        await todo.click();
        await expect(page).toHaveURL(/\/admin\/reviews\?status=pending$/);
        await expect(page.getByRole('heading', { name: 'รีวิวจากลูกค้า', level: 1 })).toBeVisible();
        const tabs = page.getByRole('navigation', { name: 'สถานะรีวิว' });
        await expect(tabs.getByRole('link', { name: /รอตรวจ 2/ })).toHaveAttribute('aria-current', 'page');
        // Newest first: the review with photos was written last.
        await expect(page.getByTestId('review-queue').locator('li.review-card').first()).toContainText(liked!.productName);
        await expect(review(page, liked!.body).getByRole('img', { name: 'รูปที่ 1 จากรีวิว' })).toBeVisible();
        await expect(review(page, liked!.body).getByRole('img', { name: '5 จาก 5 ดาว' })).toBeVisible();
        expect(await seriousAxeViolations(page)).toEqual([]);
        await keepScreenshot(page, `admin-reviews-queue-${testInfo.project.name}`);

        // Hide the spam with a reason: asked first, then back on the same tab with the message.
        const card = review(page, spam!.body);
        await card.getByText('ซ่อน', { exact: true }).click();
        await card.getByLabel('เหตุผลที่ซ่อน').fill('มีเบอร์โทรศัพท์และชวนซื้อขายนอกร้าน');
        await keepScreenshot(page, `admin-reviews-hide-${testInfo.project.name}`, { fullPage: !phone });
        await card.getByRole('button', { name: 'ซ่อนรีวิว' }).click();
        await confirmDialog(page);
        await expect(page.getByTestId('admin-flash')).toHaveText('ซ่อนรีวิวแล้ว สมาชิกจะเห็นว่ารีวิวถูกซ่อนพร้อมเหตุผล');
        await expect(page).toHaveURL(/\/admin\/reviews\?status=pending$/);
        await expect(review(page, spam!.body)).toHaveCount(0);

        await tabs.getByRole('link', { name: /ซ่อนอยู่/ }).click();
        const hidden = review(page, spam!.body);
        await expect(hidden.getByTestId('review-hidden-reason')).toHaveText('เหตุผลที่ซ่อน: มีเบอร์โทรศัพท์และชวนซื้อขายนอกร้าน');
        await expect(hidden.getByRole('button', { name: 'แสดงอีกครั้ง' })).toBeVisible();

        // Answer the published review whose text holds markup: it reads as text, nothing runs.
        await tabs.getByRole('link', { name: /เผยแพร่แล้ว/ }).click();
        const answered = review(page, `สีตรงปก แต่ส่งช้าไปนิด${mark}`);
        await expect(answered.getByTestId('review-body')).toHaveText(marked!.body);
        await answered.getByText('ตอบกลับ', { exact: true }).click();
        await answered.getByLabel('คำตอบของร้าน (แสดงต่อสาธารณะ)').fill('ขออภัยที่ส่งช้าค่ะ รอบหน้าร้านจะเร่งจัดส่งให้นะคะ');
        await answered.getByRole('button', { name: 'บันทึกคำตอบ' }).click();
        await expect(page.getByTestId('admin-flash')).toHaveText('บันทึกคำตอบของร้านแล้ว');
        await expect(review(page, `สีตรงปก แต่ส่งช้าไปนิด${mark}`).getByTestId('review-answer')).toContainText('ขออภัยที่ส่งช้าค่ะ รอบหน้าร้านจะเร่งจัดส่งให้นะคะ');
        expect(await seriousAxeViolations(page)).toEqual([]);
        await keepScreenshot(page, `admin-reviews-published-${testInfo.project.name}`);

        // One of its two photos is not fit to show: it goes alone (asked first), the review and its other photo stay.
        await tabs.getByRole('link', { name: /รอตรวจ/ }).click();
        await review(page, liked!.body).getByRole('button', { name: 'ลบรูปที่ 2 ออกจากรีวิว' }).click();
        await confirmDialog(page);
        await expect(page.getByTestId('admin-flash')).toHaveText('ลบรูปออกจากรีวิวแล้ว');
        await expect(review(page, liked!.body).getByRole('img', { name: 'รูปที่ 1 จากรีวิว' })).toBeVisible();
        await expect(review(page, liked!.body).getByRole('img', { name: 'รูปที่ 2 จากรีวิว' })).toHaveCount(0);

        // Approve the last waiting one: the waiting tab is empty and says so.
        await review(page, liked!.body).getByRole('button', { name: 'อนุมัติ' }).click();
        await expect(page.getByTestId('admin-flash')).toHaveText('อนุมัติรีวิวแล้ว รีวิวแสดงในหน้าสินค้าแล้ว');
        await expect(page.getByTestId('reviews-empty')).toHaveText('ไม่มีรีวิวที่รอตรวจ');
        await expect(tabs.getByRole('link', { name: /รอตรวจ 0/ })).toBeVisible();
        queueEmptied = true;
      } finally {
        // A failed attempt leaves no waiting review behind for the other project's queue or a retry.
        if (!queueEmptied) {
          for (const left of [spam!, liked!]) await page.request.post(`/admin/reviews/${left.id}/hide`, { form: { reason: 'ทดสอบที่ล้มเหลวทิ้งไว้' }, headers: { Origin: origin(testInfo), Accept: 'application/json' } });
        }
      }

      // The member's page in the back office counts their reviews.
      const tabs = page.getByRole('navigation', { name: 'สถานะรีวิว' });
      await tabs.getByRole('link', { name: /ทั้งหมด/ }).click();
      await review(page, liked!.body).getByRole('link', { name: liked!.memberName }).click();
      await expect(page.getByTestId('member-reviews')).toHaveText('รีวิว: เผยแพร่แล้ว 1 · รอตรวจ 0 · ซ่อนอยู่ 0');

      // The back office's product page gives the product's stars and opens its reviews alone.
      await page.goto(`/admin/products/${marked!.productCode}`);
      await expect(page.getByTestId('product-reviews')).toContainText('คะแนนรีวิว 3.0 จาก 5 (1 รีวิว)');
      await page.getByRole('link', { name: 'ดูรีวิวของสินค้านี้' }).click();
      await expect(page.getByTestId('reviews-of-product')).toContainText(marked!.productName);
      await expect(page.getByTestId('review-queue').locator('li.review-card')).toHaveCount(1);

      // The audit trail says what happened, in Thai, and links to the review alone (this owner's rows:
      // other tests write the shared shop's audit trail meanwhile).
      await page.goto(`/admin/audit?actor=${encodeURIComponent(page.email)}`);
      const hideRow = page.getByText(`ซ่อนรีวิวของ`).first();
      await expect(hideRow).toBeVisible();
      await page.getByRole('link', { name: spam!.productName }).first().click();
      await expect(page).toHaveURL(new RegExp(`/admin/reviews\\?review=${spam!.id}$`));
      await expect(page.getByTestId('review-queue').locator('li.review-card')).toHaveCount(1);
    });
    await Promise.all([page.context().close(), buyer.context().close(), fan.context().close()]);
  });

  test('the owner turns on approval for new reviews in the settings', async ({ browser }, testInfo) => {
    test.setTimeout(90_000);
    const page = await memberPage(browser, testInfo, 'เจ้าของ', 'ร้านยิ้มละไม', 'owner');
    // The switch is shop-wide: on only inside the approval lock, and off again before it is let go.
    await withReviewApproval(async () => {
      try {
        await page.goto('/admin/settings#reviews');
        const section = page.locator('#reviews');
        await expect(section.getByRole('heading', { name: 'รีวิว' })).toBeVisible();
        const approval = section.getByRole('switch', { name: 'รีวิวใหม่ต้องรอร้านอนุมัติก่อนแสดง' });
        await expect(approval).not.toBeChecked();
        await expect(section.getByRole('switch', { name: 'ส่งอีเมลชวนรีวิวเมื่อส่งของถึงแล้ว' })).toBeChecked();
        await approval.check();
        await section.getByRole('button', { name: 'บันทึก' }).click();
        await expect(page.getByTestId('admin-flash')).toHaveText('บันทึกการตั้งค่ารีวิวแล้ว');
        await expect(page.locator('#reviews').getByRole('switch', { name: 'รีวิวใหม่ต้องรอร้านอนุมัติก่อนแสดง' })).toBeChecked();
        expect(await seriousAxeViolations(page)).toEqual([]);
        await page.locator('#reviews').scrollIntoViewIfNeeded();
        await keepScreenshot(page, `admin-reviews-settings-${testInfo.project.name}`, { fullPage: false });
      } finally {
        await setReviewApproval(page.request, origin(testInfo), false);
      }
    });
    await page.context().close();
  });
});
