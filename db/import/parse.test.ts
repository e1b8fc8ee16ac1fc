import { detectFormat, parseImportFile } from "./parse";

describe("parseImportFile", () => {
  it("reads CSV with a header and gives each row the line it starts on, across quoted line breaks", () => {
    const text = 'external_id,title\nP1,"Two\nlines"\n\nP2,"Say ""hi"""\n';
    const { records, errors, columns } = parseImportFile(text, "csv");
    expect(errors).toEqual([]);
    expect(columns).toEqual(["external_id", "title"]);
    expect(records).toEqual([
      { line: 2, values: { external_id: "P1", title: "Two\nlines" } },
      { line: 5, values: { external_id: "P2", title: 'Say "hi"' } },
    ]);
  });

  it("reports a row whose field count differs from the header", () => {
    const { errors, records } = parseImportFile("a,b\n1,2,3\n4,5\n", "csv");
    expect(errors).toEqual([{ line: 2, message: "has 3 fields, the header has 2" }]);
    expect(records).toHaveLength(1);
  });

  it("strips a byte-order mark from spreadsheet exports", () => {
    const { columns } = parseImportFile("\ufeffkey,name\nx,y\n", "csv");
    expect(columns).toEqual(["key", "name"]);
  });

  it("reads JSONL and names lines that are not JSON objects", () => {
    const { records, errors } = parseImportFile('{"key":"a","name":"A"}\n\n{oops\n[1,2]\n', "jsonl");
    expect(records).toEqual([{ line: 1, values: { key: "a", name: "A" } }]);
    expect(errors.map((e) => e.line)).toEqual([3, 4]);
    expect(errors[0].message).toMatch(/not valid JSON/);
    expect(errors[1].message).toBe("is not a JSON object");
  });

  it("detects the format from the file name, then from the content", () => {
    expect(detectFormat("a.CSV", "{")).toBe("csv");
    expect(detectFormat("a.jsonl", "x,y")).toBe("jsonl");
    expect(detectFormat("upload", ' {"a":1}')).toBe("jsonl");
    expect(detectFormat("upload", "a,b")).toBe("csv");
  });
});
