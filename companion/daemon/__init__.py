"""The daemon: inputs and vision become table-log events, the engine checks them, the
screens show the views."""
