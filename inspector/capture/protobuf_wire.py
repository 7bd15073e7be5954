"""What a protobuf body's messages will take, told from its wire bytes before it is parsed. No sockets.

Parsing builds every message a body holds, and an empty message is two bytes on the wire: a gzip body
of 58 KB unpacked to 30 million empty spans, which the parser made into 5.3 GB (82 s) before the
receiver's estimate of the spans could refuse them. So a body long enough to hold more than the
receiver builds at once is walked first: its messages are found by the message types' descriptors (a
length-delimited field of a message type is a message; any other is skipped by its length) and their
estimates added, the walk stopping as soon as the sum passes the limit. Nothing is built; bytes that
are not valid protobuf end the walk, as does nesting deeper than the parser takes (it then says what is wrong).

The walk takes a Python step a field, so a body of millions of tiny fields that are not messages cost
seconds of CPU (16 MiB of them in a group, 3.8 s; a 64 KB gzip body unpacks to 64 MiB). Such a body is
refused as soon as it is seen (:class:`Refused`): past :data:`FIELDS_PER_MESSAGE` fields that are not
messages for each message walked. A group (a field OTLP does not have, which the parser keeps as unknown
bytes) is stepped over to its end, its fields counted among those.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_LENGTH_DELIMITED, _VARINT, _FIXED64, _FIXED32, _START_GROUP, _END_GROUP = 2, 0, 1, 5, 3, 4
_FIXED_BYTES = {_FIXED64: 8, _FIXED32: 4}
_DEEPEST = 200
"""Nesting past this ends the walk: the parser refuses a body nested past its own limit (100 levels)."""
FIELDS_PER_MESSAGE = 16
"""The most fields that are not messages a body may hold for each of its messages (and the request
itself): no OTLP trace message has more than 12 (a span; none of them is a repeated scalar), and the
OpenTelemetry SDK's requests of 50,000 spans hold 1.7 and 1.8 a message, 8 at most in one."""


class Refused(Exception):
    """A body whose walk would cost far more than any exporter's: it holds more than
    :data:`FIELDS_PER_MESSAGE` fields that are not messages (``fields``) for its ``messages``."""

    def __init__(self, *, fields: int, messages: int) -> None:
        super().__init__(f"{fields} fields that are not messages for {messages} messages")
        self.fields, self.messages = fields, messages


def estimate(body: bytes, descriptor: Any, weights: Mapping[str, int], default: int, limit: int) -> int:
    """The estimated memory of the messages in ``body`` (a message of ``descriptor``'s type): each message
    nested in it counts ``weights`` by its type's full name (``default`` for others); counting stops once
    past ``limit``, or at bytes that are not valid protobuf. Raises :class:`Refused` (see there)."""
    total, end_of_body = 0, len(body)
    messages, allowed = 0, FIELDS_PER_MESSAGE  # fields that are not messages: allowed while this many walked
    nested: dict[Any, dict[int, tuple[int, Any]]] = {}  # a type's message fields: number -> (weight, type)
    stack = [(0, end_of_body, descriptor)]
    try:
        while stack:
            position, end, message = stack.pop()
            if message not in nested:
                nested[message] = {field.number: (weights.get(field.message_type.full_name, default),
                                                  field.message_type)
                                   for field in message.fields if field.message_type is not None}
            fields = nested[message]
            while position < end:
                if allowed < 0:  # after a field that is not a message (a message's key gives back more)
                    raise Refused(fields=_fields(messages, allowed), messages=messages)
                key = body[position]  # a byte for every field number of OTLP's: read without a call
                if key < 0x80:
                    position += 1
                else:
                    key, position = _varint(body, position)
                if key < 8:  # field number 0: not protobuf, which the parser says (16 MiB of zero bytes, read as
                    return total  # two-byte fields of number 0 to the end, took 3 s)
                wire_type = key & 7
                allowed -= 1
                if wire_type == _LENGTH_DELIMITED:
                    length = body[position]
                    if length < 0x80:
                        position += 1
                    else:
                        length, position = _varint(body, position)
                    field = fields.get(key >> 3)
                    if field is not None:
                        total += field[0]
                        messages += 1
                        allowed += FIELDS_PER_MESSAGE + 1  # this key is one of them
                        if total > limit or len(stack) >= _DEEPEST:
                            return total
                        # Into the message at once, the rest of this one after it: the stack is as deep as
                        # the nesting, never as long as a list of siblings.
                        stack.append((position + length, end, message))
                        stack.append((position, min(position + length, end_of_body), field[1]))
                        break
                    position += length
                elif wire_type == _VARINT:
                    position = _varint(body, position)[1]
                elif wire_type == _FIXED64:
                    position += 8
                elif wire_type == _FIXED32:
                    position += 4
                elif wire_type == _START_GROUP:  # ended the walk before: a group of two bytes in front of
                    # millions of empty spans hid them all; its fields count as fields that are not messages
                    position, allowed = _after_group(body, position, key >> 3, allowed)
                    if allowed < 0:
                        raise Refused(fields=_fields(messages, allowed), messages=messages)
                else:  # an end of a group never begun, or not protobuf at all
                    return total
    except IndexError:  # a varint cut off by the body's end
        return total
    return total


def _after_group(body: bytes, position: int, number: int, allowed: int) -> tuple[int, int]:
    """Where the group of field ``number`` whose start is before ``position`` ends (after its end's key), and
    ``allowed`` less its fields (the groups inside it are stepped over as well); stops early once ``allowed``
    is below 0. Its fields are not counted as messages: the parser keeps them as bytes."""
    open_groups = [number]
    while open_groups and allowed >= 0:
        key, position = _varint(body, position)
        allowed -= 1
        wire_type = key & 7
        if wire_type in (_LENGTH_DELIMITED, _VARINT):
            number, position = _varint(body, position)  # a length, or the value itself
            position += number if wire_type == _LENGTH_DELIMITED else 0
        elif wire_type in _FIXED_BYTES:
            position += _FIXED_BYTES[wire_type]
        elif wire_type == _START_GROUP and len(open_groups) < _DEEPEST:
            open_groups.append(key >> 3)
        elif wire_type == _END_GROUP and key >> 3 == open_groups[-1]:
            open_groups.pop()
        else:
            raise IndexError("not a group the parser takes")
    if position > len(body):
        raise IndexError("a group cut off by the body's end")
    return position, allowed


def _fields(messages: int, allowed: int) -> int:
    """The fields that are not messages walked so far."""
    return (messages + 1) * FIELDS_PER_MESSAGE - allowed


def _varint(body: bytes, position: int) -> tuple[int, int]:
    byte = body[position]
    if byte < 0x80:
        return byte, position + 1
    number, shift = 0, 0
    while True:
        byte = body[position]
        number |= (byte & 0x7F) << shift
        position += 1
        if byte < 0x80:
            return number, position
        shift += 7
        if shift > 63:
            raise IndexError("a varint longer than ten bytes")
