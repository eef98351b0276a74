import { expect, test, type CDPSession, type Page } from '@playwright/test';
import sharp from 'sharp';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { signUp } from './fixtures/member';
import { waitForIslands } from './helpers';

/**
 * Issue 29, item 14: a signed-in member never sees เข้าสู่ระบบ / สมัครสมาชิก, not even for one frame on a
 * slow phone, on a page every visitor shares through the cache (docs/decisions/187). Measured as the issue
 * asks, and closer: the CPU slowed six times through CDP (`Emulation.setCPUThrottlingRate`), and from the
 * start of the navigation until the member's name is in the header, a picture of every frame Chromium
 * paints (the CDP screencast; a screenshot every 50 ms could only ever show one of these frames, and
 * `Page.captureScreenshot` stalls while a navigation is under way), and for each paint a look at the
 * DOM just before it (a requestAnimationFrame callback added before the page's own scripts).
 *
 * A frame "shows the visitor links" when the header holds as much of สมัครสมาชิก's solid blue as a
 * visitor's header does (the member's button is an outline): measured on a visitor first, so the test
 * proves it can see the links before it says they are absent.
 */
const PRIMARY = [26, 102, 194]; // $shop-blue-text, btn-primary's fill (src/styles/theme.scss)

interface Shot {
  ms: number;
  png: Buffer;
}
interface Frame {
  ms: number;
  visitorLinks: boolean;
  /** The member's button before the name is known (`บัญชีของฉัน`). */
  memberButton: boolean;
  /** The member's dropdown with the name. */
  memberName: boolean;
}

/** Pixels of btn-primary's fill in a screenshot, in CSS pixels. */
async function primaryFill(png: Buffer, scale: number): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (Math.abs(data[i]! - PRIMARY[0]!) + Math.abs(data[i + 1]! - PRIMARY[1]!) + Math.abs(data[i + 2]! - PRIMARY[2]!) < 30) count++;
  }
  return count / (scale * scale);
}

/**
 * Loads `target` with the CPU slowed down and returns every frame the browser painted from the start of
 * the navigation until `done` holds (or 20 s): the header's top `headerHeight` CSS pixels of each
 * screencast frame (Chromium sends one per frame it draws, more often than every 50 ms while a page
 * loads, and none while nothing changes), with what the DOM showed before each paint.
 */
async function recordLoad(page: Page, cdp: CDPSession, target: string, headerHeight: number, done: () => Promise<boolean>): Promise<{ shots: Shot[]; frames: Frame[]; cache: string | undefined }> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  const shots: Shot[] = [];
  const started = Date.now();
  const pending: Promise<void>[] = [];
  let lastFrame = -1;
  const onFrame = ({ data, sessionId, metadata }: { data: string; sessionId: number; metadata: { deviceWidth: number } }) => {
    const ms = Date.now() - started;
    lastFrame = ms;
    pending.push(
      (async () => {
        const png = Buffer.from(data, 'base64');
        const { width } = await sharp(png).metadata();
        const scale = width! / metadata.deviceWidth;
        shots.push({ ms, png: await sharp(png).extract({ left: 0, top: 0, width: width!, height: Math.round(headerHeight * scale) }).png().toBuffer() });
      })(),
    );
    void cdp.send('Page.screencastFrameAck', { sessionId }).catch(() => undefined);
  };
  cdp.on('Page.screencastFrame', onFrame);
  await cdp.send('Page.startScreencast', { format: 'png', everyNthFrame: 1 });
  const response = await page.goto(target, { waitUntil: 'commit' });
  while (!(await done().catch(() => false)) && Date.now() - started < 20_000) await new Promise((resolve) => setTimeout(resolve, 50));
  await page.waitForLoadState('load');
  // The frame that shows what `done` saw arrives a moment later: wait for one more frame (a second at most).
  const doneAt = Date.now() - started;
  for (let waited = 0; waited < 1_000 && lastFrame <= doneAt; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  await cdp.send('Page.stopScreencast');
  cdp.off('Page.screencastFrame', onFrame);
  await Promise.all(pending);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const frames = await page.evaluate(() => (window as unknown as { __headerFrames: Frame[] }).__headerFrames);
  shots.sort((a, b) => a.ms - b.ms);
  return { shots, frames, cache: response?.headers()['x-astro-cache'] };
}

function keepShots(shots: Shot[], name: string): void {
  const folder = process.env.E2E_SHOTS;
  if (!folder) return;
  const dir = path.join(folder, name);
  mkdirSync(dir, { recursive: true });
  for (const shot of shots) writeFileSync(path.join(dir, `${String(shot.ms).padStart(5, '0')}ms.png`), shot.png);
}

test.describe('the header of a signed-in member', { tag: '@phone' }, () => {
  test.beforeEach(async ({ page }, testInfo) => {
    // Below 576 px the member's button and the visitor's links sit in the folded menu, hidden either way:
    // the phone is turned sideways (Pixel 7, 915 × 412) so the header shows them, as on a desktop.
    if (testInfo.project.name === 'phone') await page.setViewportSize({ width: 915, height: 412 });
    // Before each paint, whether the visitor's links or the member's button are on screen.
    await page.addInitScript(() => {
      const frames: { ms: number; visitorLinks: boolean; memberButton: boolean; memberName: boolean }[] = [];
      (window as unknown as { __headerFrames: typeof frames }).__headerFrames = frames;
      const shown = (selector: string) =>
        [...document.querySelectorAll(selector)].some((element) => element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && element.getBoundingClientRect().width > 0);
      const look = () => {
        frames.push({
          ms: Math.round(performance.now()),
          visitorLinks: shown('header a[href="/login"], header a[href="/register"]'),
          memberButton: shown('header .member-only'),
          memberName: shown('header .user-menu'),
        });
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
  });

  test('never has the visitor links painted on a slow phone, on a cached page', async ({ page, context }, testInfo) => {
    test.setTimeout(120_000);
    const cdp = await context.newCDPSession(page);
    // A page no other test changes: a listing's cached copy is dropped whenever another worker's order moves
    // stock, which would make the member's load below a MISS for reasons of its own.
    const target = '/terms';

    // A visitor's header, for the detector: the links, measured in pixels.
    await page.goto(target);
    await waitForIslands(page);
    await expect(page.locator('header').getByRole('link', { name: 'เข้าสู่ระบบ' })).toBeVisible();
    const headerHeight = Math.ceil((await page.locator('header').boundingBox())!.height);
    const visitor = await recordLoad(page, cdp, target, headerHeight, async () => (await page.locator('header astro-island[ssr]').count()) === 0);
    keepShots(visitor.shots, `header-visitor-${testInfo.project.name}`);
    const scale = (await sharp(visitor.shots.at(-1)!.png).metadata()).width! / page.viewportSize()!.width;
    const visitorFill = await primaryFill(visitor.shots.at(-1)!.png, scale);
    // สมัครสมาชิก is a solid blue button of about 100 × 31 CSS pixels.
    expect(visitorFill).toBeGreaterThan(1_500);
    expect(visitor.frames.some((frame) => frame.visitorLinks)).toBe(true);

    // The member signs up (session and hint cookies) and has been here before (the name is remembered).
    const member = await signUp(page, testInfo, 'no-flash');
    await page.goto('/');
    const named = page.locator('header').getByRole('button', { name: `เมนูสมาชิก ${member.firstName}` });
    await expect(named).toBeVisible();

    // The same page, as cached for everyone, loaded by the member on a slow phone.
    const loaded = await recordLoad(page, cdp, target, headerHeight, () => named.isVisible());
    keepShots(loaded.shots, `header-member-${testInfo.project.name}`);
    // The page the visitor got, from the shared cache.
    expect(loaded.cache).toBe('HIT');
    await expect(named).toBeVisible();
    // The old page, the new one before its scripts ran, and with the name at least.
    expect(loaded.shots.length, 'frames painted while the page loaded').toBeGreaterThanOrEqual(3);
    const fills = await Promise.all(loaded.shots.map(async (shot) => ({ ms: shot.ms, fill: await primaryFill(shot.png, scale) })));
    expect(fills.filter((shot) => shot.fill > visitorFill / 3)).toEqual([]);
    // Every frame painted: never the visitor's links; the member's header in every frame that had one
    // (the button before the island ran, the name after; on a fast machine the island may run before the
    // first frame, so a frame with the button alone is not required: the visitor's load above already
    // showed the detector sees what the page paints), ending with the name.
    expect(loaded.frames.filter((frame) => frame.visitorLinks)).toEqual([]);
    expect(loaded.frames.some((frame) => frame.memberButton || frame.memberName)).toBe(true);
    expect(loaded.frames.at(-1)).toMatchObject({ memberName: true, visitorLinks: false });
  });

  test('a member whose session ended elsewhere gets the visitor links back, and the next page starts as a visitor\'s', async ({ page, context, request }, testInfo) => {
    await signUp(page, testInfo, 'ended');
    await page.goto('/product');
    await expect(page.locator('header .user-menu').filter({ visible: true })).toBeVisible();
    // The session ends on the server (a client of its own ends the same token): this browser keeps its cookies.
    const origin = new URL(page.url()).origin;
    const session = (await context.cookies()).find((cookie) => cookie.name === 'shop_session')!;
    const ended = await request.post('/api/auth/logout', { headers: { Origin: origin, Authorization: `Bearer ${session.value}` } });
    expect(ended.status()).toBe(200);
    expect((await context.cookies()).some((cookie) => cookie.name === 'shop_member')).toBe(true);
    await page.goto('/product');
    await expect(page.locator('header').getByRole('link', { name: 'เข้าสู่ระบบ' })).toBeVisible();
    expect((await context.cookies()).some((cookie) => cookie.name === 'shop_member')).toBe(false);
    await page.goto('/promotions');
    // Until the page has painted once there is nothing to look at (a loaded machine may not have yet).
    await page.waitForFunction(() => ((window as unknown as { __headerFrames?: Frame[] }).__headerFrames?.length ?? 0) > 0);
    const frames = await page.evaluate(() => (window as unknown as { __headerFrames: Frame[] }).__headerFrames);
    expect(frames.filter((frame) => frame.memberButton || frame.memberName)).toEqual([]);
    expect(frames.at(-1)).toMatchObject({ visitorLinks: true });
  });
});
