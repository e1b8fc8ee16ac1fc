import { z } from "zod";
import { intentSchema, UNKNOWN_INTENT } from "../../scripts/inputs/forms";
import { answerErrors, errorsByField, formErrorsOf, parseForm, resultFor } from "./forms";
import { answer, dispatchIntent, refuse } from "./forms.server";

/** The one form convention: a typed intent union, one handler per intent, one answer shape. */
const pageSchema = intentSchema(
  z.object({ intent: z.literal("rename"), name: z.string({ required_error: "Enter a name." }).min(2) }),
  z.object({ intent: z.literal("close") }),
);

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

function run(fields: Record<string, string>) {
  const calls: string[] = [];
  const submission = parseForm(form(fields), pageSchema);
  const response = dispatchIntent(submission, {
    rename: ({ intent, name }) => {
      calls.push(`rename ${name}`);
      return answer(submission, intent, { done: `Renamed to ${name}.` });
    },
    close: ({ intent }) => {
      calls.push("close");
      return answer(submission, intent, { done: "Closed." });
    },
  });
  return { calls, response };
}

describe("dispatchIntent", () => {
  it("runs the handler of the posted intent, with its typed fields", async () => {
    const { calls, response } = run({ intent: "rename", name: "Ada", csrf: "token" });
    expect(calls).toEqual(["rename Ada"]);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ intent: "rename", done: "Renamed to Ada." });
    expect(body.result.status).toBe("success");
  });

  it.each([
    ["an unknown intent", { intent: "delete-everything", name: "Ada" }],
    ["a missing intent", { name: "Ada" }],
    ["an intent of another route", { intent: "update" }],
  ])("refuses %s with a 400 and a sentence, running no handler", async (_name, fields) => {
    const { calls, response } = run(fields);
    expect(calls).toEqual([]);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.intent).toBeNull();
    expect(formErrorsOf(body)).toEqual([UNKNOWN_INTENT]);
    expect(answerErrors(body)).toEqual([UNKNOWN_INTENT]);
  });

  it("answers a field's error under the field, for the form of the posted intent", async () => {
    const { calls, response } = run({ intent: "rename", name: "A" });
    expect(calls).toEqual([]);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.intent).toBe("rename");
    expect(body.result.error?.name).toEqual(["String must contain at least 2 character(s)"]);
    expect(formErrorsOf(body)).toEqual([]);
    expect(resultFor(body, "rename")).toEqual(body.result);
    expect(resultFor(body, "close")).toBeUndefined();
  });
});

describe("answers", () => {
  it("puts a refusal of the whole form in the form's errors, with its status", async () => {
    const submission = parseForm(form({ intent: "close" }), pageSchema);
    const response = refuse(submission, "close", "Only a running campaign can be closed.", 409);
    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body).toMatchObject({ intent: "close", done: null });
    expect(formErrorsOf(body)).toEqual(["Only a running campaign can be closed."]);
  });

  it("keeps a password out of the answer", async () => {
    const schema = z.object({ password: z.string().min(10, "Use at least 10 characters") });
    const submission = parseForm(form({ password: "short" }), schema);
    const body = await answer(submission, null, { status: 400, hideFields: ["password"] }).json();
    expect(JSON.stringify(body)).not.toContain("short");
    expect(answerErrors(body)).toEqual(["Use at least 10 characters"]);
  });

  it("files the errors of a list's elements under the list's field", () => {
    expect(
      errorsByField({ "experts[1]": ["not an email"], "arms[0].weight": ["above 0"], name: ["x"] }),
    ).toEqual({ experts: ["not an email"], arms: ["above 0"], name: ["x"] });
  });
});
