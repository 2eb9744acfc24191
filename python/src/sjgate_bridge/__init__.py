"""sjgate's Python side: the sidecar that drives SinoPac's official Shioaji SDK for the daemon
(`python -m sjgate_bridge serve`, docs/bridge-protocol.md) and its environment check (`python -m sjgate_bridge doctor`)."""

BRIDGE_VERSION = "0.1.0"
PROTOCOL_VERSION = 1
