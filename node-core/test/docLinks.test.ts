// Every relative link and #anchor in the repository's documentation resolves: README.md,
// CONTRIBUTING.md, docs/**/*.md and node-core/PROTOCOL.md. A page moved or a heading renamed
// without its links fails here, naming the file, the line and what is missing.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { anchorsOf, brokenLinks, githubSlug, markdownFiles, relativeLinks } from "./support/docLinks.js";
import { scratchDir } from "./support/scratch.js";

const REPO = path.join(__dirname, "..", "..");

function documentation(): string[] {
  return [path.join(REPO, "README.md"), path.join(REPO, "CONTRIBUTING.md"), ...markdownFiles(path.join(REPO, "docs")), path.join(REPO, "node-core", "PROTOCOL.md")];
}

describe("documentation links", () => {
  it("every relative link and anchor in README, CONTRIBUTING, docs/ and PROTOCOL.md resolves", () => {
    const files = documentation();
    // The walk really sees the pages and their links (a broken walk would pass vacuously).
    expect(files.map((f) => path.relative(REPO, f))).toEqual(expect.arrayContaining(["docs/user/shims.md", "docs/dev/architecture.md", "docs/requirements.md"]));
    const readme = path.join(REPO, "README.md");
    const targets = relativeLinks(readme, readFileSync(readme, "utf8")).map((l) => l.target);
    expect(targets.length).toBeGreaterThan(20);
    expect(brokenLinks(REPO, files)).toEqual([]);
  });

  it("anchors are GitHub's slugs: punctuation and code marks dropped, hyphens and underscores kept, repeats numbered", () => {
    expect(githubSlug("`wave-core mcp --attach`, for agents outside the IDE")).toBe("wave-core-mcp---attach-for-agents-outside-the-ide");
    expect(githubSlug("Node.js: nothing to install")).toBe("nodejs-nothing-to-install");
    expect(githubSlug("Result shapes (`structuredContent`)")).toBe("result-shapes-structuredcontent");
    expect(githubSlug("run_shell_command")).toBe("run_shell_command");
    expect(githubSlug("Agents attached over MCP (`serve --listen`)")).toBe("agents-attached-over-mcp-serve---listen");
    expect([...anchorsOf("# A\n\n## Tests\n\n```sh\n# not a heading\n```\n\n## Tests\n")]).toEqual(["a", "tests", "tests-1"]);
  });

  it("fails on a missing file, a missing anchor, and an anchor into a file that has no such heading", () => {
    const dir = scratchDir("wave-doclinks-");
    mkdirSync(path.join(dir, "docs"));
    writeFileSync(path.join(dir, "docs", "page.md"), "# Page\n\n## Real heading\n");
    const readme = path.join(dir, "README.md");
    writeFileSync(
      readme,
      [
        "# Readme",
        "",
        "[ok](docs/page.md) [ok too](docs/page.md#real-heading) [here](#readme) [web](https://example.com/x.md)",
        "[gone](docs/missing.md)",
        "[no such heading](docs/page.md#imagined)",
        "[no local heading](#nowhere)",
        "`[in code](docs/missing.md)`",
        "```md",
        "[in a fence](docs/missing.md)",
        "```",
      ].join("\n"),
    );
    expect(brokenLinks(dir, [readme])).toEqual([
      "README.md:4: docs/missing.md (no such file: docs/missing.md)",
      "README.md:5: docs/page.md#imagined (no heading with the anchor #imagined in page.md)",
      "README.md:6: #nowhere (no heading with the anchor #nowhere in README.md)",
    ]);
  });
});
