import { readFileSync } from "node:fs";
import { cosineSimilarities, tfidfVectors, tokenize } from "./tfidf";

const F = "test/fixtures/text-small";

describe("TF-IDF with scikit-learn's defaults", () => {
  it("tokenises lower-cased runs of two or more word characters", () => {
    // As Python's re.findall(r"(?u)\b\w\w+\b", text.lower()): "é", "d" and "x" are one character long.
    expect(tokenize("Ph.D. in É-tude, x y_z 2019!")).toEqual(["ph", "in", "tude", "y_z", "2019"]);
  });

  it("weighs raw counts by the smooth idf and normalises, worked by hand", () => {
    // Texts "a1 b2 b2" and "a1": n = 2; idf(a1) = ln(3/3) + 1 = 1, idf(b2) = ln(3/2) + 1.
    // Text 1: (1, 2·idf(b2)) / norm; cosine with text 2 (a1 only, weight 1) = 1 / √(1 + 4·idf(b2)²).
    const idfB = Math.log(1.5) + 1;
    const [v1, v2] = tfidfVectors(["a1 b2 b2", "A1"]);
    const norm = Math.sqrt(1 + 4 * idfB * idfB);
    expect(Array.from(v1.weights)).toEqual([1 / norm, (2 * idfB) / norm].map((x) => expect.closeTo(x, 15)));
    expect(Array.from(v2.weights)).toEqual([1]);
    // With a third, empty text n = 3: idf(a1) = ln(4/3) + 1, idf(b2) = ln(4/2) + 1, and the cosine is
    // idf(a1) / √(idf(a1)² + 4·idf(b2)²).
    const sim = cosineSimilarities(["a1 b2 b2", "A1", "! ?"]);
    const [idfA3, idfB3] = [Math.log(4 / 3) + 1, Math.log(2) + 1];
    expect(sim[1]).toBeCloseTo(idfA3 / Math.sqrt(idfA3 ** 2 + 4 * idfB3 ** 2), 15);
    expect(Array.from(sim.slice(6))).toEqual([0, 0, 0]); // a text without tokens is like nothing, itself included
  });

  it("gives the similarities of the text-small fixture (numpy, sklearn's definition) to 1e-12", () => {
    const texts = readFileSync(`${F}/texts.csv`, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => {
        const comma = line.indexOf(",");
        return { item: line.slice(0, comma), text: line.slice(comma + 1) };
      });
    const expected = JSON.parse(readFileSync(`${F}/expected.json`, "utf8")).proposals;
    for (const proposal of ["prop-0", "prop-1", "prop-2"]) {
      const own = texts.filter((t) => t.item.startsWith(`${proposal}:`));
      const sim = cosineSimilarities(own.map((t) => t.text));
      own.forEach((a, i) =>
        own.forEach((b, j) =>
          expect(sim[i * own.length + j]).toBeCloseTo(
            expected[proposal].similarity[`${a.item}|${b.item}`],
            12,
          ),
        ),
      );
    }
  });
});
