import { describe, expect, it } from "vitest";
import * as z from "~/domain/zod";

const message = (schema: z.ZodMiniType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;

describe("our Zod (zod/mini)", () => {
  it("gives a rule without a message of its own plain words", () => {
    expect(message(z.string().check(z.maxLength(3)), "abcd")).toBe("Must be at most 3 characters");
    expect(message(z.string().check(z.minLength(2)), "a")).toBe("Must be at least 2 characters");
    expect(message(z.array(z.string()).check(z.maxLength(1)), ["a", "b"])).toBe("Must have at most 1 item");
    expect(message(z.number().check(z.lte(5)), 6)).toBe("Must be at most 5");
    expect(message(z.string(), undefined)).toBe("Required");
    expect(message(z.string(), 5)).toBe("This value is not in the expected form");
    expect(message(z.enum(["a", "b"]), "c")).toBe("Please choose one of the options");
    expect(message(z.email(), "nope")).toBe("This value is not in the expected format");
    expect(message(z.strictObject({}), { a: 1 })).toBe("This form has fields it does not expect");
  });
  it("keeps a schema's own message first", () => {
    expect(message(z.string().check(z.maxLength(3, "Too long")), "abcd")).toBe("Too long");
  });
  it("preprocess runs before the schema, as classic Zod's did", () => {
    const schema = z.preprocess((v) => (v === "" ? undefined : v), z.optional(z.string()));
    expect(schema.parse("")).toBeUndefined();
    expect(schema.parse("x")).toBe("x");
  });
});
