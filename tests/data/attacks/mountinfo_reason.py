# Attack (host paths, issue 42): on import it raises with /proc/self/mountinfo as its message. In a sandbox each
# bind mount's line names the host folder it comes from (the runner's scratch under the workspace, hiera's own
# files, the Python installation): the failure reason, which goes back to the LLM and the user, would carry them.
with open("/proc/self/mountinfo") as f:
    raise RuntimeError(f.read())
