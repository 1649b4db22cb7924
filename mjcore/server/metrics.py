"""Prometheus metrics of one server process (``GET /metrics``), in a registry of its own.

Every name starts with ``mjcore_``: rooms in memory, open connections, actions applied
(by human or bot seats), the latency of a human action from its message to its ``ok``,
database commit latency and failures, error replies by code, and rooms restored from the
database.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = ["CONTENT_TYPE", "Metrics"]

# Seconds: from well under a millisecond (an action on a quiet server) to a stalled second.
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5)


class Metrics:
    """The metrics of one app (no module-level registry: two apps in one process, as in
    tests, never share counters)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.rooms = Gauge("mjcore_rooms", "Rooms held in memory by this process", registry=r)
        self.connections = Gauge("mjcore_connections", "Open WebSocket connections", registry=r)
        self.actions = Counter("mjcore_actions", "Actions applied to games", ["by"], registry=r)
        self.action_latency = Histogram(
            "mjcore_action_seconds",
            "A human seat's act message: received to acknowledged (or refused)",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.commit_latency = Histogram(
            "mjcore_commit_seconds", "One commit of queued action log entries",
            buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.commit_failures = Counter(
            "mjcore_commit_failures", "Commits the database did not take", registry=r
        )
        self.errors = Counter(
            "mjcore_errors", "Error replies sent to clients, by code", ["code"], registry=r
        )
        self.restores = Counter(
            "mjcore_restores", "Rooms restored from the database (at start or later)", registry=r
        )

    def observe_commit(self, seconds: float, stored: bool) -> None:
        """Store.on_commit: one commit's latency, and whether the database took it."""
        self.commit_latency.observe(seconds)
        if not stored:
            self.commit_failures.inc()

    def count_rooms(self, how_many: Callable[[], int]) -> None:
        """Report the room gauge from ``how_many()`` at each scrape."""
        self.rooms.set_function(how_many)

    def render(self) -> bytes:
        """The text exposition format of every metric."""
        return generate_latest(self.registry)
