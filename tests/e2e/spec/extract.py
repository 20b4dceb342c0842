"""Extract from Discord's OpenAPI description the schemas the fake Discord is checked against.

Usage: ``python tests/e2e/spec/extract.py OPENAPI_JSON COMMIT > tests/e2e/spec/discord.json``
(OPENAPI_JSON is ``specs/openapi.json`` of github.com/discord/discord-api-spec at COMMIT).

The output keeps, for each route the fake implements, the schema of its success answer, and
for the gateway events the fake sends a schema built from the same objects (the gateway's
shapes are documented in github.com/discord/discord-api-docs, ``developers/events/``, not in
the OpenAPI file), plus every component schema these refer to, and nothing else.
"""

from __future__ import annotations

import json
import sys
from typing import Any

# (method, path) as the OpenAPI file spells them: the routes of the fake Discord (tests/e2e/fake_rest.py).
ROUTES = [
    ("get", "/users/@me"), ("get", "/users/{user_id}"), ("get", "/oauth2/applications/@me"),
    ("get", "/gateway"), ("get", "/gateway/bot"),
    ("get", "/applications/{application_id}/commands"), ("put", "/applications/{application_id}/commands"),
    ("get", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("put", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("post", "/users/@me/channels"), ("get", "/guilds/{guild_id}"), ("get", "/guilds/{guild_id}/channels"),
    ("post", "/guilds/{guild_id}/channels"), ("get", "/guilds/{guild_id}/members/{user_id}"),
    ("get", "/channels/{channel_id}"), ("patch", "/channels/{channel_id}"), ("delete", "/channels/{channel_id}"),
    ("get", "/channels/{channel_id}/messages"), ("post", "/channels/{channel_id}/messages"),
    ("get", "/channels/{channel_id}/messages/{message_id}"), ("patch", "/channels/{channel_id}/messages/{message_id}"),
    ("post", "/channels/{channel_id}/threads"), ("post", "/channels/{channel_id}/messages/{message_id}/threads"),
    ("post", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("post", "/webhooks/{webhook_id}/{webhook_token}"),
    ("get", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("get", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
]


def ref(name: str) -> dict:
    """A reference to a component schema."""
    return {"$ref": f"#/components/schemas/{name}"}


def obj(required: list[str], **properties: Any) -> dict:
    """An object schema."""
    return {"type": "object", "properties": properties, "required": required}


SNOWFLAKE, STRING, INTEGER, BOOLEAN = ref("SnowflakeType"), {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
ARRAY = {"type": "array"}


def gateway(schemas: dict) -> tuple[dict, dict]:
    """Schemas of the gateway events (the "Gateway Events" docs), and the derived objects they use."""
    member = schemas["GuildMemberResponse"]
    # MESSAGE_CREATE's member: "partial guild member" = the member object without its user.
    partial_member = {**member, "required": [k for k in member["required"] if k != "user"]}
    # An interaction's member: the guild member object "including permissions".
    interaction_member = {"allOf": [ref("GuildMemberResponse"), obj(["permissions"], permissions=STRING)]}
    derived = {"GatewayPartialMember": partial_member, "GatewayInteractionMember": interaction_member}
    message_extra = obj(["mentions"], guild_id=SNOWFLAKE, member=ref("GatewayPartialMember"),
                        mentions={"type": "array", "items": ref("UserResponse")}, channel_type=INTEGER)
    message_event = {"allOf": [ref("MessageResponse"), message_extra]}
    guild_extra = obj(
        ["joined_at", "large", "member_count", "voice_states", "members", "channels", "threads", "presences",
         "stage_instances", "guild_scheduled_events", "soundboard_sounds"],
        joined_at={"type": "string", "format": "date-time"}, large=BOOLEAN, unavailable=BOOLEAN,
        member_count=INTEGER, voice_states=ARRAY, members={"type": "array", "items": ref("GuildMemberResponse")},
        channels={"type": "array", "items": ref("GuildChannelResponse")},
        threads={"type": "array", "items": ref("ThreadResponse")}, presences=ARRAY, stage_instances=ARRAY,
        guild_scheduled_events=ARRAY, soundboard_sounds=ARRAY)
    events = {
        "READY": obj(["v", "user", "guilds", "session_id", "resume_gateway_url", "application"],
                     v=INTEGER, user=ref("UserResponse"),
                     guilds={"type": "array", "items": obj(["id", "unavailable"], id=SNOWFLAKE, unavailable=BOOLEAN)},
                     session_id=STRING, resume_gateway_url=STRING,
                     shard={"type": "array", "items": INTEGER, "minItems": 2, "maxItems": 2},
                     application=obj(["id", "flags"], id=SNOWFLAKE, flags=INTEGER)),
        "GUILD_CREATE": {"allOf": [ref("GuildResponse"), guild_extra]},
        "MESSAGE_CREATE": message_event,
        "MESSAGE_UPDATE": message_event,
        "MESSAGE_DELETE": obj(["id", "channel_id"], id=SNOWFLAKE, channel_id=SNOWFLAKE, guild_id=SNOWFLAKE),
        "CHANNEL_CREATE": ref("GuildChannelResponse"),
        "CHANNEL_UPDATE": ref("GuildChannelResponse"),
        "CHANNEL_DELETE": ref("GuildChannelResponse"),
        "THREAD_CREATE": ref("ThreadResponse"),
        "THREAD_UPDATE": ref("ThreadResponse"),
        "THREAD_DELETE": obj(["id", "guild_id", "parent_id", "type"], id=SNOWFLAKE, guild_id=SNOWFLAKE,
                             parent_id=SNOWFLAKE, type=INTEGER),
        "GUILD_MEMBERS_CHUNK": obj(["guild_id", "members", "chunk_index", "chunk_count"], guild_id=SNOWFLAKE,
                                   members={"type": "array", "items": ref("GuildMemberResponse")},
                                   chunk_index=INTEGER, chunk_count=INTEGER, not_found=ARRAY, presences=ARRAY,
                                   nonce={"type": ["string", "null"]}),
        "GUILD_ROLE_UPDATE": obj(["guild_id", "role"], guild_id=SNOWFLAKE, role=ref("GuildRoleResponse")),
        "INTERACTION_CREATE": obj(
            ["id", "application_id", "type", "token", "version", "app_permissions", "entitlements",
             "authorizing_integration_owners", "attachment_size_limit"],
            id=SNOWFLAKE, application_id=SNOWFLAKE, type=ref("InteractionTypes"), data={"type": "object"},
            guild=obj(["id", "locale", "features"], id=SNOWFLAKE, locale=STRING, features=ARRAY),
            guild_id=SNOWFLAKE, channel=obj(["id", "type"], id=SNOWFLAKE, type=INTEGER), channel_id=SNOWFLAKE,
            member=ref("GatewayInteractionMember"), user=ref("UserResponse"), token=STRING,
            version={"const": 1}, message=ref("MessageResponse"), app_permissions=STRING, locale=STRING,
            guild_locale=STRING, entitlements=ARRAY, authorizing_integration_owners={"type": "object"},
            context=ref("InteractionContextType"), attachment_size_limit=INTEGER),
    }
    return events, derived


def refs(node: Any) -> set[str]:
    """Names of the component schemas a schema refers to directly."""
    if isinstance(node, dict):
        found = {node["$ref"].rsplit("/", 1)[1]} if "$ref" in node else set()
        return found.union(*(refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(refs(v) for v in node))
    return set()


def success_schema(operation: dict) -> Any:
    """The JSON schema of an operation's first 2xx answer with a body (None: no body)."""
    for code, response in sorted(operation["responses"].items()):
        if code.startswith("2") and "content" in response:
            return response["content"]["application/json"]["schema"]
    return None


def extract(spec: dict, commit: str) -> dict:
    """The routes' and events' schemas with the closure of the component schemas they use."""
    schemas = spec["components"]["schemas"]
    routes = {f"{m.upper()} {p}": success_schema(spec["paths"][p][m]) for m, p in ROUTES}
    events, derived = gateway(schemas)
    kept: dict[str, Any] = {}
    todo = refs(routes) | refs(events) | refs(derived)
    while todo:
        name = todo.pop()
        if name in kept or name in derived:
            continue
        kept[name] = schemas[name]
        todo |= refs(kept[name])
    return {"source": {"repository": "https://github.com/discord/discord-api-spec", "file": "specs/openapi.json",
                       "commit": commit, "openapi": spec["openapi"]},
            "routes": routes, "events": events,
            "components": {"schemas": dict(sorted({**kept, **derived}.items()))}}


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        json.dump(extract(json.load(f), sys.argv[2]), sys.stdout, indent=1, sort_keys=False)
        sys.stdout.write("\n")
