"""Several Blender test scripts in one Blender process: Blender's start costs seconds, and a test
that checks many models would otherwise pay it once per model.

Inside Blender (started by run() below):
  blender --python blender_jobs.py -- JOBS.json
JOBS.json lists {"script": PATH, "args": [...]}. Each job runs as if Blender had been started with
`--python SCRIPT -- ARGS`: factory settings first, sys.argv as Blender gives it, its output
captured, an exception or sys.exit giving its exit status. Every finished job appends
{"code": N, "stdout": ..., "stderr": ...} to JOBS.json.results (one JSON line each), so a crash
of Blender leaves the jobs after it without a result, and run() reports them failed.

From a test driver (plain python3): run(blender, jobs, work_dir, env=None) -> one
subprocess.CompletedProcess-like result per job, in order.
"""
import io
import json
import os
import subprocess
import sys
import types


def run(blender, jobs, work, env=None):
    """Runs jobs ([(script, [args...])]) in one Blender; returns a result per job with returncode,
    stdout and stderr like subprocess.run's, plus the whole process's output on failure."""
    os.makedirs(work, exist_ok=True)
    listing = os.path.join(work, "blender_jobs.json")
    with open(listing, "w") as f:
        json.dump([{"script": s, "args": [str(a) for a in a_]} for s, a_ in jobs], f)
    results_path = listing + ".results"
    if os.path.exists(results_path):
        os.remove(results_path)
    p = subprocess.run([blender, "--python", os.path.abspath(__file__), "--", listing],
                       capture_output=True, text=True, env=env)
    done = []
    if os.path.exists(results_path):
        with open(results_path) as f:
            done = [json.loads(line) for line in f if line.strip()]
    results = []
    for i in range(len(jobs)):
        if i < len(done):
            d = done[i]
            results.append(types.SimpleNamespace(returncode=d["code"], stdout=d["stdout"],
                                                 stderr=d["stderr"]))
        else:  # Blender ended before this job finished
            results.append(types.SimpleNamespace(
                returncode=p.returncode or 1, stdout=p.stdout[-3000:],
                stderr=f"Blender exited ({p.returncode}) before this job finished\n" +
                p.stderr[-3000:]))
    return results


def _run_job(bpy, script, args, argv0):
    import contextlib
    import runpy
    import traceback
    out, err = io.StringIO(), io.StringIO()
    code = 0
    bpy.ops.wm.read_factory_settings(use_empty=True)
    sys.argv = argv0 + ["--"] + args
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as e:  # the script's own exit status, as --python-exit-code keeps it
            if e.code is None:
                code = 0
            elif isinstance(e.code, int):
                code = e.code
            else:
                print(e.code, file=sys.stderr)
                code = 1
        except BaseException:  # an uncaught error: Blender's --python-exit-code 1
            traceback.print_exc()
            code = 1
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def _main():
    import bpy
    argv = list(sys.argv)
    listing = argv[argv.index("--") + 1]
    argv0 = argv[:argv.index("--")]
    with open(listing) as f:
        jobs = json.load(f)
    with open(listing + ".results", "w") as results:
        for job in jobs:
            result = _run_job(bpy, job["script"], job["args"], argv0)
            results.write(json.dumps(result) + "\n")
            results.flush()
            print(f"blender job {os.path.basename(job['script'])} {' '.join(job['args'])}: "
                  f"exit {result['code']}")


if __name__ == "__main__":
    _main()
