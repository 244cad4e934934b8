import logging

log = logging.getLogger(__name__)


class Job:
    def run(self):
        log.info("running")
        return self.finish()

    def finish(self):
        return "done"


Job().run()
