"""Where the shared data folder is, as internal/shareddata says for Go:
$REDACTD_SHARED_DATA when set, else ../shared/data beside the checkout
(the folder that holds go.mod, three levels above this file)."""

import os

_CHECKOUT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


def shared_data(*parts):
    """The shared data folder, or parts joined onto it."""
    d = os.environ.get("REDACTD_SHARED_DATA") or os.path.join(os.path.dirname(_CHECKOUT), "shared", "data")
    return os.path.join(d, *parts)
