"""The drivers of the Blender add-on's tests (blender_addon.py, blender_level.py): the add-on zip
of a build, installed into a user folder of the test's own (never the real user's), and the steps
of blender_addon_session.py run one after another in one Blender process (blender_jobs.py).
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_checks import Checks  # noqa: E402

import blender_jobs  # noqa: E402


class AddonSteps:
    def __init__(self, build_dir, source, prefix):
        self.mshconv = os.path.join(build_dir, "mshconv")
        self.addon_zip = os.path.join(build_dir, "io_scene_parkan.zip")
        self.source = source
        self.work = tempfile.mkdtemp(prefix=prefix)
        self.checks = Checks(self.mshconv)
        self.env = dict(os.environ, BLENDER_USER_SCRIPTS=os.path.join(self.work, "user"),
                        BLENDER_USER_CONFIG=os.path.join(self.work, "user", "config"))
        here = os.path.join(source, "tests", "integration")
        self._session = os.path.join(here, "blender_addon_session.py")
        # Each step from factory settings as if started alone: the driver still looks at the
        # files between steps.
        self._steps = blender_jobs.Process(os.path.join(here, "blender"),
                                           os.path.join(self.work, "blender.log"), self.env)

    def step(self, *args):
        """One step of blender_addon_session.py: its RESULT json, with `stdout` added."""
        r = self._steps.run(self._session, self.addon_zip, *args)
        lines = [l for l in r.stdout.splitlines() if l.startswith("RESULT ")]
        result = json.loads(lines[-1][7:]) if lines else {"error": r.stdout[-1500:] + r.stderr[-800:]}
        result["stdout"] = r.stdout
        return result

    def close(self):
        self._steps.close()


def read(path):
    with open(path, "rb") as f:
        return f.read()
