import { expect, test } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startFixtureTarget } from "../fixture/target.js";
import { ROOT, fixtureProfile, runCli, tempDir, writeProfile } from "../helpers/cli.js";

let report = "";

test.beforeAll(async () => {
  const target = await startFixtureTarget({
    faults: ["hello-not-json", "hello-cacheable", "docs-redirect-loop"],
  });
  try {
    const dir = tempDir();
    const profile = writeProfile(dir, fixtureProfile());
    const res = await runCli(["run", profile, "--out", join(dir, "out")], { env: target.env });
    expect(res.code, res.stderr).toBe(1);
    report = join(dir, "out", "report.html");
  } finally {
    await target.close();
  }
});

test("report.html opens from disk with no network, filters to failures and shows a finding's exchange", async ({
  page,
}) => {
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(report).href);
  await expect(page.locator("h1")).toContainText("idconform report");
  await expect(page.locator("#not-certifiable")).toContainText("plain http was allowed");

  await page.selectOption("#f-verdict", "fail");
  const visible = page.locator("tbody.req:not([hidden])");
  await expect(visible).toHaveCount(2);
  await expect(page.locator("#shown")).toContainText("2 of");

  const row = page.locator("tbody.req", { hasText: "FIX-HELLO-JSON" });
  await row.locator("tr.main").click();
  const detail = row.locator("tr.detail");
  await expect(detail).toBeVisible();
  await expect(detail.locator(".finding")).toContainText("the response body is not JSON");
  await expect(detail.locator("details.exchange summary").first()).toContainText("GET http://127.0.0.1:");
  await expect(detail.locator(".curl pre").first()).toContainText("curl -sS -i");

  // The warning card filters too, and a warned SHOULD never reads as a pass.
  await page.locator('.card[data-filter-verdict="warn"]').click();
  await expect(page.locator("tbody.req:not([hidden]) .badge")).toHaveText(["warn"]);

  await page.selectOption("#f-verdict", "");
  await page.fill("#f-text", "callback");
  await expect(visible).toHaveCount(2);

  expect(requests.every((u) => u.startsWith("file:"))).toBe(true);
  mkdirSync(join(ROOT, "reports", "screenshots"), { recursive: true });
  await page.fill("#f-text", "");
  await page.selectOption("#f-verdict", "nonpass");
  await page.locator("tbody.req", { hasText: "FIX-DOCS-REACHABLE" }).locator("tr.main").click();
  await page.screenshot({ path: join(ROOT, "reports", "screenshots", "report.png"), fullPage: true });

  // A check's notes show under it in the requirement's detail (issue 12 item 6).
  await page.selectOption("#f-verdict", "");
  await page.fill("#f-text", "FIX-ERROR-NO-TRACE");
  await page.locator("tbody.req", { hasText: "FIX-ERROR-NO-TRACE" }).locator("tr.main").click();
  await expect(page.locator("tbody.req:not([hidden]) tr.detail ul.notes")).toContainText(
    "judged on 1 exchange(s)",
  );
});
