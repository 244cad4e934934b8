import os


class Email:
    def send(self):
        return "email"


class Sms:
    def send(self):
        return "sms"


def notify(channel):
    return channel.send()  # unresolved


kind = os.environ.get("CODEMAP_CASE_CHANNEL", "Email")
channel = globals()[kind]()  # unresolved
notify(channel)
