"""Signing in to protected servers (MCP authorization, OAuth 2.1): the pure parts first.

:mod:`.challenge` reads a server's ``WWW-Authenticate`` challenge; :mod:`.discovery` says where
the metadata documents are looked for, in the order the specification gives, and checks what they
say (the resource, the issuer, ``iss`` on the way back). Nothing here touches the network yet.
"""
