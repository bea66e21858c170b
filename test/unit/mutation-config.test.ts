import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { parse } from "@babel/parser";
import traverseModule from "@babel/traverse";
import { describe, expect, it } from "vitest";
import { faultReason, proseReason } from "../mutation/ignorers.mjs";
import {
  isDataModule,
  isFaultModule,
  mutableSuites,
  NOT_PROTOCOL,
  protocolFiles,
  ROOT,
  strykerOptions,
} from "../mutation/stryker-options.mjs";
import { departures } from "../mutation/departures.js";
import { VARIANTS } from "../mutation/variants.js";
import { loadSuites } from "../../src/engine/discovery.js";
import type { CheckResult } from "../../src/engine/check.js";

// @babel/traverse is CommonJS marked __esModule: depending on the loader's interop, the default
// import is the function itself or module.exports with the function as its `default`.
type Traverse = typeof traverseModule.default;
const loaded = traverseModule as unknown as Traverse | { default: Traverse };
const traverse: Traverse = typeof loaded === "function" ? loaded : loaded.default;

/** The source text of every node the ignorers leave out of mutation, with the reason given. */
function ignored(code: string): string[] {
  const ast = parse(code, {
    sourceType: "module",
    plugins: ["typescript"],
    allowReturnOutsideFunction: true,
  });
  const out: string[] = [];
  traverse(ast, {
    enter(path) {
      const why = faultReason(path) ?? proseReason(path);
      if (why === undefined) return;
      out.push(code.slice(path.node.start ?? 0, path.node.end ?? 0));
      path.skip();
    },
  });
  return out;
}

/** Every `.ts` file under `dir`, absolute. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/**
 * Where `file` uses a value imported from one of the target's fault modules outside a fault-only
 * position (a fault switch's branch, as faultReason decides): "line: source".
 */
function faultModuleUsesOutsideFaults(code: string): string[] {
  const ast = parse(code, { sourceType: "module", plugins: ["typescript"] });
  const out: string[] = [];
  traverse(ast, {
    ImportDeclaration(path) {
      const from = path.node.source.value;
      if (path.node.importKind === "type" || !isFaultModule(basename(from).replace(/\.js$/, ".ts"))) return;
      for (const spec of path.get("specifiers")) {
        if (spec.node.type === "ImportSpecifier" && spec.node.importKind === "type") continue;
        const binding = path.scope.getBinding(spec.node.local.name);
        for (const ref of binding?.referencePaths ?? []) {
          if (ref.findParent((p) => faultReason(p) !== undefined) !== null) continue;
          // A type position (`x as Snapshots`, a parameter's type) is no use at run time.
          if (ref.findParent((p) => p.isTSType() || p.isTSTypeAnnotation()) !== null) continue;
          out.push(`${ref.node.loc?.start.line}: ${code.slice(ref.node.start ?? 0, ref.node.end ?? 0)}`);
        }
      }
    },
  });
  return out;
}

/** What in `code` is not literal data: a branch, loop, comparison, arithmetic or assignment ("line: kind"). */
function logicIn(code: string): string[] {
  const ast = parse(code, { sourceType: "module", plugins: ["typescript"] });
  const out: string[] = [];
  const LOGIC = new Set([
    "IfStatement",
    "ConditionalExpression",
    "LogicalExpression",
    "BinaryExpression",
    "UnaryExpression",
    "UpdateExpression",
    "AssignmentExpression",
    "ForStatement",
    "ForInStatement",
    "ForOfStatement",
    "WhileStatement",
    "DoWhileStatement",
    "SwitchStatement",
    "TryStatement",
    "OptionalMemberExpression",
    "OptionalCallExpression",
    "CallExpression",
  ]);
  traverse(ast, {
    enter(path) {
      if (!LOGIC.has(path.node.type)) return;
      // Calling a builder declared in the module itself (`rp("alpha", {...})`) is data too.
      const callee = path.isCallExpression() ? path.node.callee : undefined;
      if (callee?.type === "Identifier" && path.scope.getBinding(callee.name)?.kind === "const") return;
      out.push(`${path.node.loc?.start.line}: ${path.node.type}`);
    },
  });
  return out;
}

describe("npm run mutation: its configuration (issue 10 item 7), kept from rotting", () => {
  it("a target's data modules are left out of mutation, and hold literal data only", () => {
    let modules = 0;
    for (const suite of mutableSuites()) {
      for (const f of tsFiles(join(ROOT, "targets", suite)).filter((x) => isDataModule(basename(x)))) {
        modules++;
        expect(protocolFiles(suite)).not.toContain(relative(ROOT, f));
        expect(logicIn(readFileSync(f, "utf8")), relative(ROOT, f)).toEqual([]);
      }
    }
    expect(modules).toBeGreaterThan(0);
    expect(
      logicIn(
        [
          "const b = (n: string) => ({ uri: `https://${n}.example` });",
          'export const D = [b("x"), { a: 1 }];',
          "export const E = D.length > 0 ? D : [];",
          "export const F = [String(2)];",
        ].join("\n"),
      ),
    ).toEqual(["3: ConditionalExpression", "3: BinaryExpression", "4: CallExpression"]);
  });

  it("a target's fault modules are left out of mutation, and only fault branches use them", () => {
    let modules = 0;
    for (const suite of mutableSuites()) {
      const dir = join(ROOT, "targets", suite);
      const files = tsFiles(dir);
      for (const f of files.filter((x) => isFaultModule(basename(x)))) {
        modules++;
        expect(protocolFiles(suite)).not.toContain(relative(ROOT, f));
      }
      for (const f of files.filter((x) => !isFaultModule(basename(x))))
        expect(faultModuleUsesOutsideFaults(readFileSync(f, "utf8")), relative(ROOT, f)).toEqual([]);
    }
    expect(modules).toBeGreaterThan(0);
    // The detector itself: a use outside a fault branch is reported, one inside or in a type is not.
    const sample = [
      'import { pager, type Page } from "./fault-pagers.js";',
      'import { Other } from "../x/fault-other.js";',
      'const a = ctx.faults.has("f") ? pager(1) : undefined;',
      'if (faults.has("g")) { new Other(); }',
      "const p = q as Page;",
      "const b = pager(2);",
      "const c = ok ? new Other() : undefined;",
    ].join("\n");
    expect(faultModuleUsesOutsideFaults(sample)).toEqual(["6: pager", "7: Other"]);
  });

  it("every suite with a reference target mutates its protocol files, never the fault catalog", () => {
    expect(mutableSuites().sort()).toEqual(expect.arrayContaining(["commands", "scim", "vci"]));
    for (const suite of mutableSuites()) {
      const files = protocolFiles(suite);
      expect(files.length, suite).toBeGreaterThan(10);
      for (const f of files) {
        expect(existsSync(join(ROOT, f)), f).toBe(true);
        expect(
          NOT_PROTOCOL.some((n) => f === `targets/${suite}/${n}`),
          f,
        ).toBe(false);
      }
      const o = strykerOptions(suite);
      expect(o.mutate).toEqual(files);
      expect(o.coverageAnalysis).toBe("perTest");
      expect(o.testRunner).toBe("vitest");
      expect(o.incrementalFile).toBe(join("reports", "mutation", suite, "incremental.json"));
      for (const p of o.plugins) if (p.startsWith("/")) expect(existsSync(p), p).toBe(true);
    }
  });

  it("the mutation test config runs the one test file that opens a suite in process", () => {
    const { vitest } = strykerOptions("scim");
    const config = readFileSync(join(ROOT, vitest.configFile), "utf8");
    expect(config).toContain('"test/mutation/suite.mutation.ts"');
    expect(existsSync(join(ROOT, "test/mutation/suite.mutation.ts"))).toBe(true);
  });

  it("every mutation variant names a mutable suite and checks of its manifest, and its profile is made", async () => {
    for (const [suite, variants] of Object.entries(VARIANTS)) {
      expect(mutableSuites()).toContain(suite);
      const [manifest] = await loadSuites([suite]);
      const ids = manifest!.checks.map((c) => c.id);
      for (const v of variants) {
        const named = v.checks === "all" ? ids : v.checks;
        expect(named.length, v.name).toBeGreaterThan(0);
        for (const id of named) expect(ids, `${v.name}: ${id}`).toContain(id);
        expect(v.profile(), v.name).toContain(`suites:\n  ${suite}:`);
      }
    }
  });

  it("Stryker 9.6 and its vitest runner are pinned to the same version, the line that runs on Node 20", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.devDependencies["@stryker-mutator/core"]).toMatch(/^9\.6\.\d+$/);
    expect(pkg.devDependencies["@stryker-mutator/vitest-runner"]).toBe(
      pkg.devDependencies["@stryker-mutator/core"],
    );
    expect(pkg.scripts.mutation).toBe("node scripts/mutation.mjs");
  });

  it("fault switches, conjunctions with them and the branches only a fault reaches are not mutated", () => {
    const code = [
      'if (ctx.faults.has("a")) { leak(); }',
      'if (faults.has("b") && x > 1) return broken(); else return fine();',
      'const v = deps.faults.has("c") ? wrong : right;',
      'const w = !this.faults.has("d") ? right2 : wrong2;',
      'if (!ctx.faults.has("e") && token !== expected) throw refuse();',
      'const z = d.faults.has("f") && sideEffect();',
    ].join("\n");
    expect(ignored(code)).toEqual([
      'ctx.faults.has("a")',
      "{ leak(); }",
      'faults.has("b") && x > 1',
      "return broken();",
      'deps.faults.has("c")',
      "wrong",
      'this.faults.has("d")',
      "wrong2",
      'ctx.faults.has("e")',
      'd.faults.has("f") && sideEffect()',
    ]);
    // The guard around protocol logic stays: `token !== expected`, `throw refuse()`, `right`.
    expect(ignored(code).join("\n")).not.toContain("token !== expected");
  });

  it("display text of three words or more is not mutated; protocol values and header templates are", () => {
    const code = [
      'const a = "the code is unknown, expired or already used";',
      'const b = "invalid_grant";',
      'const c = "no-store";',
      'const d = `${REALM}, error="invalid_token", error_description="x y z"`;',
      'const e = "text/html; charset=utf-8";',
      "const f = `the ${kind} of this user is gone`;",
    ].join("\n");
    expect(ignored(code)).toEqual([
      '"the code is unknown, expired or already used"',
      "`the ${kind} of this user is gone`",
    ]);
  });

  it("a mutant is killed by a check that no longer finds its requirements met, or by an observer's violation", () => {
    const base: CheckResult = {
      check: "x.check",
      suite: "x",
      title: "t",
      section: "s",
      requirements: { "X-A": "met" },
      findings: [],
      exchanges: [],
      notes: [],
      durationMs: 1,
      observations: [{ observer: "x.no-store", requirement: "X-B", seen: 3, violations: 0 }],
    };
    expect(departures(base)).toEqual([]);
    expect(departures({ ...base, requirements: { "X-A": "skipped" } })).toEqual(["X-A: skipped: "]);
    expect(
      departures({
        ...base,
        observations: [
          {
            observer: "x.no-store",
            requirement: "X-B",
            seen: 3,
            violations: 1,
            first: { exchange: 2, message: "cacheable" },
          },
        ],
      }),
    ).toEqual(["observer x.no-store: cacheable"]);
  });
});
