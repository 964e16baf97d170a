#!/usr/bin/env python3
"""runbook-plugin-greet in Python: a stage plugin speaking runbook's plugin
protocol (plugins/proto/runbook/v1/plugin.proto) over go-plugin's gRPC
transport with grpcio, without the Go SDK. docs/PLUGINS.md, "Writing a
plugin in another language", explains each numbered step.

The message modules in gen/ are protoc's (see README.md to regenerate);
the services are registered by hand, so grpcio-tools is not needed.
"""
import json
import os
import signal
import sys
import threading
import time
from concurrent import futures

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))

import grpc  # noqa: E402
import controller_pb2  # noqa: E402
import health_pb2  # noqa: E402
import plugin_pb2  # noqa: E402

# 1. The magic cookie: started by hand, say what this is and exit.
if os.environ.get("RUNBOOK_PLUGIN") != "b7d1c7e2-runbook-stage-plugin":
    sys.stderr.write("This program is a runbook plugin (protocol 1): runbook starts it.\n")
    sys.exit(1)

# 4. stdout carries the handshake line only: a stray print goes to stderr.
handshake_out = sys.stdout
sys.stdout = sys.stderr


def describe(_request, _context):
    return plugin_pb2.Description(
        name="greet",
        version="0.1.0",
        description="Greets a name (a Python example)",
        args=[
            plugin_pb2.Arg(name="name", type="string", required=True, description="who to greet"),
            plugin_pb2.Arg(name="greeting", type="string", has_default=True,
                           default_json=json.dumps("hello").encode()),
        ],
    )


def run_call(call):
    try:
        args = json.loads(call.args_json) if call.args_json else {}
        name = args.get("name")
        if not isinstance(name, str) or not name.strip():
            return plugin_pb2.CallResult(id=call.id, error="name: want a non-empty string")
        result = {"message": "%s, %s" % (args.get("greeting"), name)}
        return plugin_pb2.CallResult(id=call.id, result_json=json.dumps(result).encode())
    except Exception as e:  # the call fails, the plugin stays up
        return plugin_pb2.CallResult(id=call.id, error="plugin failed: %r" % (e,))


def run_batch(request, _context):
    return plugin_pb2.RunBatchResponse(results=[run_call(c) for c in request.calls])


def health_check(_request, _context):
    # 3. The health service go-plugin's host asks: "plugin" is SERVING.
    return health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)


server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))


def shutdown(_request, _context):
    # 5. Shutdown: answer, then exit, so the host need not kill us after 2 s.
    threading.Timer(0.05, lambda: os._exit(0)).start()
    return controller_pb2.Empty()


def unary(fn, req, resp):
    return grpc.unary_unary_rpc_method_handler(
        fn, request_deserializer=req.FromString, response_serializer=resp.SerializeToString)


server.add_generic_rpc_handlers((
    grpc.method_handlers_generic_handler("runbook.v1.Stage", {
        "Describe": unary(describe, plugin_pb2.DescribeRequest, plugin_pb2.Description),
        "RunBatch": unary(run_batch, plugin_pb2.RunBatchRequest, plugin_pb2.RunBatchResponse),
    }),
    grpc.method_handlers_generic_handler("grpc.health.v1.Health", {
        "Check": unary(health_check, health_pb2.HealthCheckRequest, health_pb2.HealthCheckResponse),
    }),
    grpc.method_handlers_generic_handler("plugin.GRPCController", {
        "Shutdown": unary(shutdown, controller_pb2.Empty, controller_pb2.Empty),
    }),
))

port = server.add_insecure_port("127.0.0.1:0")
server.start()

# 2. The handshake line: core protocol 1 | runbook protocol 1 | network | address | grpc.
handshake_out.write("1|1|tcp|127.0.0.1:%d|grpc\n" % port)
handshake_out.flush()

# 7. The end: SIGTERM, or the parent gone (the host was killed).
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
parent = os.getppid()
while os.getppid() == parent:
    time.sleep(0.5)
os._exit(1)
