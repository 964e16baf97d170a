// A client no one here wrote: the TypeScript SDK (@modelcontextprotocol/sdk
// from npm) lists runbook's tools and calls one, over stdio. Run by
// TestMCPTypeScriptClient (mcp_e2e_test.go):
//   node client.mjs RUNBOOK_BINARY CHART… --runs DIR
// It prints one JSON object of what it saw; it exits 1 on a failed check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: bin, args: ["mcp", ...args], stderr: "ignore" });
const client = new Client({ name: "ts-client", version: "0.0.0" });
const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };

await client.connect(transport);
const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
const prose = tools.find((t) => t.name === "volumes-prose");
check(prose && prose.outputSchema && prose.inputSchema.properties.threshold.type === "number", "volumes-prose's schemas");

// The SDK validates structuredContent against the tool's output schema.
const res = await client.callTool({ name: "volumes-prose", arguments: { threshold: 90 } });
const text = res.content.length === 1 && res.content[0].type === "text" ? res.content[0].text : "";
const sc = res.structuredContent || {};
check(!res.isError, "the call is not an error");
check(sc.status === "completed" && typeof sc.runId === "string", "status and runId");
check(sc.verdicts && text.includes(sc.verdicts.table.trimEnd()), "the text holds the table verbatim");

const ex = await client.callTool({ name: "explain", arguments: { runId: sc.runId, key: "verdicts[0]" } });
check(!ex.isError && ex.content[0].text.includes("mark-risk"), "explain names the stage behind the row");

const rec = await client.readResource({ uri: "runbook://runs/" + sc.runId });
check(rec.contents.length === 1 && JSON.parse(rec.contents[0].text).recordVersion === 2, "the run record resource");

await client.close();
console.log(JSON.stringify({ names, status: sc.status, rows: sc.verdicts ? sc.verdicts.rowsTotal : -1, failures }));
process.exit(failures.length ? 1 : 0);
