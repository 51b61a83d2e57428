"""The recorder's one error type: a message a person can act on, printed without a traceback."""


class RecorderError(Exception):
    pass
