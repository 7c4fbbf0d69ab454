"""Blender test scripts run one after another in one Blender process: Blender's start (and
Eevee's shader compiles) cost seconds, and a test that checks many models would otherwise pay them
once per model.

From a test driver (plain python3):
    with Process(blender, log_path, env) as s:
        r = s.run(SCRIPT, ARG...)   # r.returncode, r.stdout, r.stderr as subprocess.run gives
    run(blender, [(SCRIPT, [ARG...]), ...], work_dir) -> a result per job
The driver may look at what a job wrote before it starts the next one, as with one Blender per job.

Each job runs as if Blender had been started with `--python SCRIPT -- ARGS`: factory settings
first, sys.argv as Blender gives it, file descriptors 1 and 2 captured (the output of programs the
script starts too), an exception or sys.exit giving its exit status. When Blender dies, that job
and every later one fail with the end of Blender's log.

Inside Blender: blender --python blender_jobs.py -- RESULT_FD (jobs as JSON lines on stdin).
"""
import json
import os
import subprocess
import sys
import types


def _result(code, stdout, stderr):
    return types.SimpleNamespace(returncode=code, stdout=stdout, stderr=stderr)


class Process:
    def __init__(self, blender, log, env=None):
        read_fd, write_fd = os.pipe()
        self.log = log
        self._log = open(log, "w")
        self._proc = subprocess.Popen(
            [blender, "--python", os.path.abspath(__file__), "--", str(write_fd)],
            stdin=subprocess.PIPE, stdout=self._log, stderr=subprocess.STDOUT, text=True,
            env=env, pass_fds=(write_fd,))
        os.close(write_fd)
        self._results = os.fdopen(read_fd)

    def run(self, script, *args):
        line = ""
        try:
            self._proc.stdin.write(json.dumps({"script": script, "args": [str(a) for a in args]}) + "\n")
            self._proc.stdin.flush()
            line = self._results.readline()
        except BrokenPipeError:
            pass
        if not line:  # Blender is gone
            code = self._proc.wait()
            with open(self.log, errors="replace") as f:
                tail = f.read()[-3000:]
            return _result(code or 1, "", f"Blender exited ({code}) before {script} finished:\n{tail}")
        d = json.loads(line)
        return _result(d["code"], d["stdout"], d["stderr"])

    def close(self):
        if self._proc.stdin and not self._proc.stdin.closed:
            try:
                self._proc.stdin.close()
            except BrokenPipeError:
                pass
        self._proc.wait()
        self._results.close()
        self._log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run(blender, jobs, work, env=None):
    """jobs: [(script, [args...])], run in order in one Blender; a result per job."""
    os.makedirs(work, exist_ok=True)
    with Process(blender, os.path.join(work, "blender_jobs.log"), env) as s:
        return [s.run(script, *args) for script, args in jobs]


def _run_job(bpy, script, args, argv0):
    import ctypes
    import runpy
    import tempfile
    import traceback
    libc = ctypes.CDLL(None)
    code = 0
    bpy.ops.wm.read_factory_settings(use_empty=True)
    sys.argv = argv0 + ["--"] + args
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush(), sys.stderr.flush(), libc.fflush(None)
        saved = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1), os.dup2(err.fileno(), 2)
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
        except BaseException:  # an uncaught error: --python-exit-code 1
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush(), sys.stderr.flush(), libc.fflush(None)
            os.dup2(saved[0], 1), os.dup2(saved[1], 2)
            os.close(saved[0]), os.close(saved[1])
        texts = []
        for f in (out, err):
            f.seek(0)
            texts.append(f.read().decode(errors="replace"))
    return {"code": code, "stdout": texts[0], "stderr": texts[1]}


def _main():
    import bpy
    argv = list(sys.argv)
    argv0 = argv[:argv.index("--")]
    results = os.fdopen(int(argv[argv.index("--") + 1]), "w")
    for line in sys.stdin:
        job = json.loads(line)
        result = _run_job(bpy, job["script"], job["args"], argv0)
        results.write(json.dumps(result) + "\n")
        results.flush()
        print(f"blender job {os.path.basename(job['script'])} {' '.join(job['args'])}: "
              f"exit {result['code']}", flush=True)


if __name__ == "__main__":
    _main()
