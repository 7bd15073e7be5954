"""Signing in to protected servers (MCP authorization, OAuth 2.1).

:mod:`.challenge` reads a server's ``WWW-Authenticate`` challenge; :mod:`.discovery` says where the
metadata documents are looked for and checks what they say; :mod:`.documents` fetches them;
:mod:`.registration` chooses the client (pre-registered, metadata document, registered);
:mod:`.pkce`, :mod:`.redirect` and :mod:`.browser` carry the person's trip through the browser;
:mod:`.tokens` (with :mod:`.token_requests`, :mod:`.token_errors`, :mod:`.proofs`) says everything
to the token endpoint; :mod:`.flow` runs the steps as legs, and :mod:`.operation` makes a sign-in
an operation of its own and gives other operations their credentials and refreshes.
"""
