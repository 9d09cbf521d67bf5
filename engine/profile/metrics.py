"""The profile model's old home: the types are contracts/profile.py's (the language server reads them without
the engine). Kept so the engine's existing `engine.profile.metrics` imports go on working."""

from contracts.profile import Bottleneck, KernelProfile, LineFinding, Profile, RuleResult

__all__ = ["Bottleneck", "KernelProfile", "LineFinding", "Profile", "RuleResult"]
