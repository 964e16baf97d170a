#!/usr/bin/env node
// runbook-plugin-greet in Node: a stage plugin speaking runbook's plugin
// protocol (plugins/proto/runbook/v1/plugin.proto) over go-plugin's gRPC
// transport, without the Go SDK. docs/PLUGINS.md, "Writing a plugin in
// another language", explains each step marked below.
'use strict';
const path = require('path');
const grpc = require('@grpc/grpc-js');
const loader = require('@grpc/proto-loader');

// 1. The magic cookie: started by hand, say what this is and exit.
if (process.env.RUNBOOK_PLUGIN !== 'b7d1c7e2-runbook-stage-plugin') {
  process.stderr.write('This program is a runbook plugin (protocol 1): runbook starts it.\n');
  process.exit(1);
}

// 4. stdout carries the handshake line only: everything else goes to stderr.
console.log = console.error;

const protoDir = process.env.RUNBOOK_PROTO_DIR ||
  path.join(__dirname, '..', '..', '..', 'plugins', 'proto', 'runbook', 'v1');
const opts = { keepCase: true, longs: String, enums: String, defaults: true, bytes: Buffer };
const load = (file, dirs) => grpc.loadPackageDefinition(loader.loadSync(file, { ...opts, includeDirs: dirs }));
const runbook = load(path.join(protoDir, 'plugin.proto'), [protoDir]).runbook.v1;
const health = load(path.join(__dirname, 'proto', 'health.proto'), []).grpc.health.v1;
const controller = load(path.join(__dirname, 'proto', 'controller.proto'), []).plugin;

const description = {
  name: 'greet',
  version: '0.1.0',
  description: 'Greets a name (a Node example)',
  args: [
    { name: 'name', type: 'string', required: true, description: 'who to greet' },
    { name: 'greeting', type: 'string', has_default: true, default_json: Buffer.from(JSON.stringify('hello')) },
  ],
  runs_code: false,
  reads: [],
};

// One call: JSON bytes in, JSON bytes out; a failure is the call's error.
function runCall(call) {
  try {
    const args = call.args_json.length ? JSON.parse(call.args_json.toString()) : {};
    if (typeof args.name !== 'string' || args.name.trim() === '') {
      return { id: call.id, error: 'name: want a non-empty string' };
    }
    const result = { message: `${args.greeting}, ${args.name}` };
    return { id: call.id, result_json: Buffer.from(JSON.stringify(result)) };
  } catch (e) {
    return { id: call.id, error: `plugin failed: ${e && e.stack ? e.stack : e}` };
  }
}

const server = new grpc.Server();
server.addService(runbook.Stage.service, {
  Describe: (_call, cb) => cb(null, description),
  RunBatch: (call, cb) => cb(null, { results: call.request.calls.map(runCall) }),
});
// 3. The health service go-plugin's host asks: "plugin" is SERVING.
server.addService(health.Health.service, {
  Check: (_call, cb) => cb(null, { status: 'SERVING' }),
});
// 5. Shutdown: answer, then exit, so the host need not kill us after 2 s.
server.addService(controller.GRPCController.service, {
  Shutdown: (_call, cb) => {
    cb(null, {});
    setImmediate(() => server.tryShutdown(() => process.exit(0)));
    setTimeout(() => process.exit(0), 200).unref();
  },
});

// The host gone ends us: SIGTERM, or our parent changed (it died).
process.on('SIGTERM', () => process.exit(0));
const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) process.exit(1); }, 500).unref();

server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write(`greet: cannot listen: ${err}\n`);
    process.exit(1);
  }
  // 2. The handshake line: core protocol 1 | runbook protocol 1 | network | address | grpc.
  process.stdout.write(`1|1|tcp|127.0.0.1:${port}|grpc\n`);
});
