"""Agents in any language: programs speaking the agent protocol (docs/agents.md).

* :mod:`mjcore.agents.protocol` — the messages (JSON lines; schemas ``agent_message`` and
  ``agent_ready``) and how an answer is read;
* :mod:`mjcore.agents.process` — one agent program as a child process, every fault caught;
* :mod:`mjcore.agents.exec` — the bot spec ``exec:COMMAND`` (simulate, league, RL opponents);
* :mod:`mjcore.agents.live` — ``mjcore agent``: the same program at a live server seat;
* :mod:`mjcore.agents.suite` — the benchmark suite (``mjcore league --suite v1``).
"""

from .exec import ExecBot, ExecSpec, parse_exec
from .process import FAULTS, AgentProcess
from .protocol import PROTOCOL

__all__ = ["FAULTS", "PROTOCOL", "AgentProcess", "ExecBot", "ExecSpec", "parse_exec"]
