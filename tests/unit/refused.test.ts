import { describe, expect, it } from "vitest";
import {
  overSaved,
  postWithoutRefused,
  refusedAnswers,
  refusedAsPosted,
  withoutRefused,
} from "~/domain/intake/refused";

/** A post of step 5's boxes, as a browser without JavaScript sends them. */
const post = (entries: [string, string][]) => {
  const form = new FormData();
  for (const [name, value] of entries) form.append(name, value);
  return form;
};

describe("a step post with a refused answer saves the others", () => {
  it("names the refused answers: a field, one box of a row of boxes, a whole list; never the form's own message", () => {
    expect(
      refusedAnswers({
        "": ["Unknown action."],
        primaryDomain: ["Required"],
        "competitorUrls[2]": ["Please enter a web address"],
        "servicesList[0].name": ["Name the service"],
        "socialLinks.instagram": ["Please enter an Instagram address"],
        googleBusinessUrl: null,
      }),
    ).toEqual(["primaryDomain", "competitorUrls", "servicesList", "socialLinks.instagram"]);
  });

  it("leaves a refused list or field out of the post and gives a refused box of a row its stored text", () => {
    const form = post([
      ["primaryDomain", "spark.com.au"],
      ["competitorUrls[0]", "https://a.example"],
      ["listIds.competitorUrls[0]", "abcdefghijkl"],
      ["competitorUrls[1]", "not a url"],
      ["socialLinks.facebook", "https://facebook.com/spark"],
      ["socialLinks.instagram", "not an instagram"],
      ["intent", "next"],
    ]);
    const rest = postWithoutRefused(form, ["competitorUrls", "socialLinks.instagram"], {
      socialLinks: { instagram: "https://www.instagram.com/spark" },
    } as never);
    expect([...rest]).toEqual([
      ["primaryDomain", "spark.com.au"],
      ["socialLinks.facebook", "https://facebook.com/spark"],
      ["socialLinks.instagram", "https://www.instagram.com/spark"],
      ["intent", "next"],
    ]);
    expect(withoutRefused({ primaryDomain: "x", competitorUrls: [], socialLinks: {} }, ["competitorUrls"])).toEqual({
      primaryDomain: "x",
      socialLinks: {},
    });
  });

  it("shows the refused answers as typed over the saved step, every row of a refused list with an id", () => {
    let n = 0;
    const newId = () => `new${String(++n).padStart(9, "0")}`;
    const shown = refusedAsPosted(
      {
        competitorUrls: ["https://a.example", "not a url"],
        listIds: { competitorUrls: ["abcdefghijkl"] },
        socialLinks: { instagram: "not an instagram", facebook: "ignored" },
      },
      ["competitorUrls", "socialLinks.instagram"],
      newId,
    );
    expect(shown).toEqual({
      competitorUrls: ["https://a.example", "not a url"],
      socialLinks: { instagram: "not an instagram" },
      listIds: { competitorUrls: ["abcdefghijkl", "new000000001"] },
    });
    expect(
      overSaved(
        {
          primaryDomain: "spark.com.au",
          socialLinks: { facebook: "https://facebook.com/spark" },
          listIds: { targetKeywords: ["zzzzzzzzzzzz"] },
        } as never,
        shown,
      ),
    ).toEqual({
      primaryDomain: "spark.com.au",
      competitorUrls: ["https://a.example", "not a url"],
      socialLinks: { facebook: "https://facebook.com/spark", instagram: "not an instagram" },
      listIds: { targetKeywords: ["zzzzzzzzzzzz"], competitorUrls: ["abcdefghijkl", "new000000001"] },
    });
  });
});
