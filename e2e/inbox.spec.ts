import { expect, type Page } from "@playwright/test";
import { audit, expectFitsPhone, expectNoViolations, type PageReport } from "./checks";
import { signUpNewUser, test } from "./fixtures";

const shots = process.env.E2E_SCREENSHOT_DIR ?? "test-results";

/** The session's own calls (the web app's), with the Origin a browser sends. */
async function post(page: Page, baseURL: string, path: string, data: unknown) {
  const response = await page.request.post(path, { headers: { Origin: baseURL }, data });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

test("a reply reaches the inbox, is assigned, answered inside the window and delivered; outside the window only a template goes", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpNewUser(page, { name: "Ada Lovelace", workspace: "Inbox Shop" });

  const grace = await post(page, baseURL!, "/api/v1/contacts", { phone: "+14155550141", name: "Grace Hopper", attributes: { city: "Paris", plan: "gold" } });
  const linus = await post(page, baseURL!, "/api/v1/contacts", { phone: "+14155550142", name: "Linus Pauling" });

  // Linus wrote 26 hours ago (his window has closed); Grace just now.
  const dayAndMore = new Date(Date.now() - 26 * 60 * 60 * 1000).toISOString();
  await post(page, baseURL!, "/api/sandbox/inbound", { contactId: linus.id, text: "Where is my parcel?", receivedAt: dayAndMore });
  await post(page, baseURL!, "/api/sandbox/inbound", { contactId: grace.id, kind: "media", mediaType: "image", mimeType: "image/jpeg", caption: "This one" });
  await post(page, baseURL!, "/api/sandbox/inbound", { contactId: grace.id, text: "Is it in blue?" });

  // The navigation counts the unread conversations.
  await page.goto("/campaigns");
  const inboxLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ });
  await expect(inboxLink).toHaveAccessibleName("Inbox 2 unread");
  await inboxLink.click();
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();

  const list = page.getByRole("list", { name: "Conversations" });
  const rows = list.getByRole("link");
  await expect(rows).toHaveCount(2);
  // Newest activity first.
  await expect(rows.first()).toContainText("Grace Hopper");
  await expect(rows.first()).toContainText("Is it in blue?");
  await expect(rows.first()).toContainText("2 unread");
  await expect(rows.nth(1)).toContainText("Linus Pauling");
  await expect(rows.nth(1)).toContainText("Template only");

  // Opening it marks it read.
  await rows.first().click();
  await expect(page).toHaveURL(/\/inbox\/cnv_[A-Za-z0-9]+/);
  const conversation = page.getByRole("region", { name: "Conversation with Grace Hopper" });
  const messages = conversation.getByRole("list", { name: "Messages" });
  await expect(messages).toContainText("Is it in blue?");
  await expect(messages).toContainText("image/jpeg");
  await expect(messages).toContainText("This one");
  await expect(inboxLink).toHaveAccessibleName("Inbox 1 unread");
  await expect(rows.first()).not.toContainText("unread");

  // Assign to self: the list's "Mine" shows it.
  await conversation.getByLabel("Assignee").selectOption({ label: "Ada Lovelace (you)" });
  await expect(messages).toContainText("Ada Lovelace assigned it to themselves");
  await page.getByRole("group", { name: "Assigned to" }).getByRole("button", { name: "Mine" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Ada Lovelace");
  await page.getByRole("group", { name: "Assigned to" }).getByRole("button", { name: "All" }).click();
  await expect(rows).toHaveCount(2);

  // Inside the window: a free-form reply, sent and delivered (the sandbox delivers after ~1 s).
  await expect(conversation.getByText(/Window closes in 2[34] h/)).toBeVisible();
  await conversation.getByRole("textbox", { name: "Reply" }).fill("Yes, it comes in blue and in green.");
  await conversation.getByRole("button", { name: "Send", exact: true }).click();
  const answer = messages.getByRole("listitem").filter({ hasText: "Yes, it comes in blue and in green." });
  await expect(answer).toContainText("Ada Lovelace");
  await expect(answer.getByTestId("message-status")).toHaveText(/Delivered|Read/, { timeout: 20_000 });
  await expect(rows.first()).toContainText("You: Yes, it comes in blue");

  // A media URL WhatsApp could not fetch is refused next to the composer (nothing listens on 127.0.0.1:443 here).
  await conversation.getByRole("group", { name: "Message type" }).getByRole("button", { name: "Image" }).click();
  await conversation.getByRole("textbox", { name: "Image URL" }).fill("https://127.0.0.1/missing.jpg");
  await conversation.getByRole("button", { name: "Send", exact: true }).click();
  await expect(conversation.getByRole("alert")).toContainText("WhatsApp could not fetch the file");
  await conversation.getByRole("group", { name: "Message type" }).getByRole("button", { name: "Text" }).click();

  // A note stays internal.
  await conversation.getByRole("tab", { name: "Note" }).click();
  await conversation.getByRole("textbox", { name: "Note" }).fill("Offered the green one too.");
  await conversation.getByRole("button", { name: "Add note" }).click();
  await expect(messages.getByRole("listitem").filter({ hasText: "Offered the green one too." })).toContainText("Internal note");
  await conversation.getByRole("tab", { name: "Reply" }).click();

  // Live: the contact's next message appears without a reload.
  await post(page, baseURL!, "/api/sandbox/inbound", { contactId: grace.id, kind: "location", latitude: 48.8584, longitude: 2.2945, name: "Eiffel Tower" });
  await expect(messages).toContainText("Eiffel Tower", { timeout: 5_000 });
  // And a reply sent elsewhere (another member, another tab) shows up too, never silently.
  const graceConversation = page.url().split("/").pop()!.split("?")[0]!;
  await post(page, baseURL!, `/api/v1/conversations/${graceConversation}/replies`, { type: "text", text: "Sent from another tab." });
  await expect(messages).toContainText("Sent from another tab.", { timeout: 5_000 });

  const reports: PageReport[] = [];
  await audit(page, "inbox-conversation", reports);
  await page.screenshot({ path: `${shots}/inbox-conversation-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("link", { name: "Back to conversations" })).toBeVisible();
  await expect(list).toBeHidden();
  await expectFitsPhone(page, "inbox-conversation");
  await page.screenshot({ path: `${shots}/inbox-conversation-390.png`, fullPage: true });
  await page.getByRole("link", { name: "Back to conversations" }).click();
  await expect(list).toBeVisible();
  await expectFitsPhone(page, "inbox-list");
  await page.screenshot({ path: `${shots}/inbox-list-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Outside the window: only a template, with the reason.
  await rows.filter({ hasText: "Linus Pauling" }).click();
  const old = page.getByRole("region", { name: "Conversation with Linus Pauling" });
  await expect(old.getByText("WhatsApp allows free-form messages only within 24 hours of the customer's last message.")).toBeVisible();
  await expect(old.getByText("Window closed")).toBeVisible();
  await expect(old.getByRole("textbox", { name: "Reply" })).toHaveCount(0);
  await old.getByLabel("Template", { exact: true }).selectOption({ label: "order_confirmation · en_US · utility" });
  await old.getByRole("textbox", { name: "Body {{1}}" }).fill("Linus");
  await old.getByRole("textbox", { name: "Body {{2}}" }).fill("B-142");
  await expect(old.getByLabel("Preview")).toHaveText(/Hi Linus, thanks for your order! Your order number is B-142\./);
  await old.getByRole("button", { name: "Send template" }).click();
  const sent = old.getByRole("list", { name: "Messages" }).getByRole("listitem").filter({ hasText: "Your order number is B-142" });
  await expect(sent).toContainText("Template · order_confirmation");
  await audit(page, "inbox-template-only", reports);
  await page.screenshot({ path: `${shots}/inbox-template-1280.png` });

  // The API refuses free text there too (never WhatsApp's 131047).
  const conversationId = page.url().split("/").pop()!.split("?")[0]!;
  const refused = await page.request.post(`/api/v1/conversations/${conversationId}/replies`, { headers: { Origin: baseURL! }, data: { type: "text", text: "Hello?" } });
  expect(refused.status()).toBe(409);

  // Close and reopen.
  await old.getByRole("button", { name: "Close" }).click();
  await expect(old.getByRole("list", { name: "Messages" })).toContainText("Ada Lovelace closed the conversation");
  await old.getByRole("button", { name: "Reopen" }).click();
  await expect(old.getByRole("list", { name: "Messages" })).toContainText("Ada Lovelace reopened the conversation");

  // A wide screen shows the contact beside the conversation.
  await page.setViewportSize({ width: 1600, height: 900 });
  await expect(page.getByRole("complementary", { name: "Contact" }).getByRole("link", { name: "Open contact page" })).toBeVisible();
  await page.screenshot({ path: `${shots}/inbox-wide-1600.png` });

  expectNoViolations(reports);
});

test("saved replies and keyword auto-replies; a contact's conversation opens from their page and the sandbox contact replies from the inbox", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpNewUser(page, { name: "Ada Lovelace", workspace: "Replies Shop" });
  const maria = await post(page, baseURL!, "/api/v1/contacts", { phone: "+14155550151", name: "Maria Lopez", attributes: { order_number: "A-7" } });

  await page.goto("/settings/saved-replies");
  await page.getByRole("textbox", { name: "Name" }).fill("Shipping");
  await page.getByRole("textbox", { name: "Reply" }).fill("Hi {{first_name}}, order {{order_number}} ships tomorrow.");
  await page.getByRole("button", { name: "Add saved reply" }).click();
  await expect(page.getByRole("list", { name: "Saved replies" })).toContainText("Shipping");

  await page.goto("/settings/auto-replies");
  await page.getByRole("textbox", { name: "Keyword or button payload" }).fill("hours");
  await page.getByRole("textbox", { name: "Answer" }).fill("We are open 9 to 18, Monday to Saturday.");
  await page.getByRole("button", { name: "Add auto-reply" }).click();
  await expect(page.getByRole("list", { name: "Auto-replies" })).toContainText("HOURS");

  // From the contact's page: their conversation, new, with no window yet (templates only).
  await page.goto(`/contacts/${maria.id}`);
  await page.getByRole("button", { name: "Conversation" }).click();
  await expect(page).toHaveURL(/\/inbox\/cnv_[A-Za-z0-9]+/);
  const conversation = page.getByRole("region", { name: "Conversation with Maria Lopez" });
  await expect(conversation.getByText("Window closed")).toBeVisible();

  // The sandbox contact asks for the hours: the auto-reply answers, and the window opens.
  await conversation.getByText("Contact details").click();
  await conversation.getByRole("textbox", { name: "Customer's message" }).fill("Hours?");
  await conversation.getByRole("button", { name: "Simulate reply" }).click();
  const messages = conversation.getByRole("list", { name: "Messages" });
  await expect(messages).toContainText("Hours?");
  await expect(messages.getByRole("listitem").filter({ hasText: "We are open 9 to 18" })).toContainText("Auto-reply", { timeout: 10_000 });
  await expect(conversation.getByText(/Window closes in/)).toBeVisible();

  // A saved reply, filled from the contact, edited and sent.
  await conversation.getByRole("button", { name: "Saved replies" }).click();
  await page.getByRole("menuitem", { name: /Shipping/ }).click();
  const reply = conversation.getByRole("textbox", { name: "Reply" });
  await expect(reply).toHaveValue("Hi Maria, order A-7 ships tomorrow.");
  await reply.fill("Hi Maria, order A-7 ships tomorrow. Thanks!");
  await conversation.getByRole("button", { name: "Send", exact: true }).click();
  await expect(messages.getByRole("listitem").filter({ hasText: "ships tomorrow. Thanks!" })).toContainText("Ada Lovelace");
  const reports: PageReport[] = [];
  await audit(page, "inbox-saved-replies", reports);
  await page.screenshot({ path: `${shots}/inbox-saved-reply-1280.png` });
  expectNoViolations(reports);
});

test("a sandbox bulk send: a contact answers, a member takes it, answers inside the window, and the campaign counts one reply", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpNewUser(page, { name: "Ada Lovelace", workspace: "Bulk Replies Shop" });
  const put = async (path: string, data: unknown) => {
    const response = await page.request.put(path, { headers: { Origin: baseURL! }, data });
    expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
  };
  // The sandbox's audience answers bulk campaigns (off unless asked for).
  await put("/api/workspace/inbox-settings", { replyAttributionHours: 72, inboxMembersSeeAll: true, sandboxAudienceReplies: true });
  const list = await post(page, baseURL!, "/api/v1/lists", { name: "Customers" });
  const phones = ["+14155550161", "+14155550162"];
  const contactIds: unknown[] = [];
  for (const [index, phone] of phones.entries()) contactIds.push((await post(page, baseURL!, "/api/v1/contacts", { phone, name: `Customer ${index + 1}` })).id);
  await post(page, baseURL!, `/api/v1/lists/${list.id}/contacts`, { contactIds });
  const templates = (await (await page.request.get("/api/v1/templates")).json()) as { data: { id: string; name: string }[] };
  const template = templates.data.find((candidate) => candidate.name === "order_confirmation")!;
  const campaign = await post(page, baseURL!, "/api/v1/campaigns", {
    kind: "bulk",
    name: "Order follow-up",
    audience: { listIds: [list.id], segmentIds: [] },
    templateId: template.id,
    messageConfig: { variables: [{ key: "body.1", attribute: "name", fallback: "there" }, { key: "body.2", attribute: null, fallback: "your order" }] },
  });
  await post(page, baseURL!, `/api/v1/campaigns/${campaign.id}/launch`, {});

  // The first contact reads it and asks a question: it reaches the inbox, started by the campaign.
  await page.goto("/inbox");
  const rows = page.getByRole("list", { name: "Conversations" }).getByRole("link");
  await expect(rows.first()).toContainText("Is it available in blue?", { timeout: 30_000 });
  await rows.first().click();
  const conversation = page.getByRole("region", { name: /^Conversation with Customer/ });
  const messages = conversation.getByRole("list", { name: "Messages" });
  await expect(messages).toContainText("Campaign · Order follow-up");
  await conversation.getByLabel("Assignee").selectOption({ label: "Ada Lovelace (you)" });
  await conversation.getByRole("textbox", { name: "Reply" }).fill("Yes: blue, green and red.");
  await conversation.getByRole("button", { name: "Send", exact: true }).click();
  const answer = messages.getByRole("listitem").filter({ hasText: "Yes: blue, green and red." });
  await expect(answer.getByTestId("message-status")).toHaveText(/Delivered|Read/, { timeout: 20_000 });

  // The campaign counts the reply; the answer is a conversation's, not the campaign's.
  await page.goto(`/campaigns/${campaign.id}`);
  await expect(page.getByRole("region", { name: "Sending progress" }).getByTestId("funnel-replied")).toHaveText("1");
});
