"""The client scenario (see conformance/clients/run.sh) with the Python MCP SDK (`mcp`) or FastMCP.

    python scenario.py mcp|mcp-legacy|fastmcp URL

`mcp` connects as the SDK does by default (mode "auto": `server/discover`, so MCP 2026-07-28),
`mcp-legacy` with the `initialize` handshake (a 2025-11-25 session), `fastmcp` as FastMCP's client
does by default (2026-07-28 too) and adds `execute-cold`: a fresh client whose first call is
`execute`, before it listed any tool. Prints one line per check (PASS, FAIL or N/A, the client
and the check's name) and exits 1 if any check failed. The checks and their names are the same
for every client of run.sh; the server is the quickstart with `tools.exposure: both`,
`server.page_size: 3` and `server.search_output_schema: true`.
"""

from __future__ import annotations

import asyncio
import json
import sys
import traceback
import warnings
from typing import Any

import mcp_types as types
from mcp import Client, MCPError

warnings.simplefilter("ignore")  # the SDK's deprecation notices for logging/setLevel

PROJECT_TOOLS = {"get-customer", "list-orders", "order-stats", "search-products"}


class NotApplicable(Exception):
    """The check cannot apply to this client: the message says why."""


def text_of(result: Any) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent), f"first content block is {type(block).__name__}"
    return block.text


def expect_rpc_error(code: int):
    """A checker that awaits a call and asserts that it raised the JSON-RPC error `code`."""

    async def check(awaitable) -> str:
        try:
            result = await awaitable
        except MCPError as e:
            assert e.code == code, f"JSON-RPC error {e.code} ({e.message}), expected {code}"
            return f"{e.code} {e.message}"
        raise AssertionError(f"no JSON-RPC error, got {result!r:.200}")

    return check


class Scenario:
    def __init__(self, name: str, url: str):
        self.name = name
        self.url = url
        self.failed = 0
        self.passed = 0
        self.not_applicable = 0
        self.logs: list[types.LoggingMessageNotificationParams] = []

    async def check(self, check: str, fn) -> None:
        try:
            detail = await fn()
        except NotApplicable as e:
            self.not_applicable += 1
            print(f"N/A  {self.name} {check}: {e}", flush=True)
        except Exception as e:  # a check fails on anything it did not expect
            self.failed += 1
            print(f"FAIL {self.name} {check}: {type(e).__name__}: {e}", flush=True)
            if "-v" in sys.argv:
                traceback.print_exc()
        else:
            self.passed += 1
            print(f"PASS {self.name} {check}" + (f" ({detail})" if detail else ""), flush=True)

    # -- the client, by kind ------------------------------------------------------------------

    def modern(self) -> bool:
        return self.name != "python-mcp-legacy"

    def new_client(self, log_level: str | None = None):
        async def on_log(params: types.LoggingMessageNotificationParams) -> None:
            self.logs.append(params)

        if self.name == "fastmcp":
            from fastmcp import Client as FastMCPClient

            return FastMCPClient(self.url, log_handler=on_log, timeout=30)
        return Client(self.url, mode="auto" if self.modern() else "legacy", logging_callback=on_log,
                      log_level=log_level, read_timeout_seconds=30)

    def session(self, client):
        return client.session

    async def call(self, client, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        """The tool's raw result; a JSON-RPC error raises MCPError."""
        if self.name == "fastmcp":
            return await client.call_tool_mcp(name, arguments)
        return await client.call_tool(name, arguments)

    async def list_all_tools(self, client) -> tuple[list[types.Tool], int]:
        if self.name == "fastmcp":
            pages, cursor, tools = 0, None, []
            while True:  # list_tools() pages by itself; count the pages with list_tools_mcp
                page = await client.list_tools_mcp(cursor=cursor)
                pages += 1
                tools += page.tools
                cursor = page.next_cursor
                if cursor is None:
                    break
            assert [t.name for t in await client.list_tools()] == [t.name for t in tools], "list_tools() differs"
            return tools, pages
        pages, cursor, tools = 0, None, []
        while True:
            page = await client.list_tools(cursor=cursor)
            pages += 1
            tools += page.tools
            cursor = page.next_cursor
            if cursor is None:
                return tools, pages

    # -- the checks ---------------------------------------------------------------------------

    async def run(self) -> None:
        # each check's name is its method's, with dashes: tools-list is tools_list
        on_one_client = ["connect", "capabilities", "tools-list", "search", "execute", "typed-output", "tool-error",
                         "protocol-error", "unknown-method", "prompts", "resources", "completion"]
        if not self.modern():
            on_one_client.append("logging")  # logging/setLevel on the session
        async with self.new_client() as client:
            for name in on_one_client:
                method = getattr(self, name.replace("-", "_") + ("_legacy" if name == "logging" else ""))
                await self.check(name, lambda: method(client))
        if self.modern():
            await self.check("logging", self.logging_modern)  # a client of its own, with a log level
        await self.check("execute-cold", self.execute_cold)

    async def connect(self, client) -> str:
        version = client.protocol_version
        expected = "2026-07-28" if self.modern() else "2025-11-25"
        assert version == expected, f"negotiated {version}, expected {expected}"
        info = client.server_info
        assert info is not None and info.name, f"no server info: {info!r}"
        how = "server/discover" if self.modern() else "initialize"
        return f"{how}: protocol {version}, server {info.name} {info.version}"

    async def capabilities(self, client) -> str:
        caps = client.server_capabilities
        missing = [n for n in ("tools", "prompts", "resources", "completions", "logging") if getattr(caps, n) is None]
        assert not missing, f"capabilities lack {missing}: {caps!r}"
        return "tools, prompts, resources, completions, logging"

    async def tools_list(self, client) -> str:
        tools, pages = await self.list_all_tools(client)
        names = [t.name for t in tools]
        assert names[:2] == ["search", "execute"], f"tools start {names[:2]}"
        assert set(names[2:]) == PROJECT_TOOLS and len(names) == 6, f"tools {names}"
        assert pages == 2, f"{pages} pages of at most 3 tools, expected 2"
        direct = {t.name: t for t in tools}["get-customer"]
        assert direct.output_schema is not None, "get-customer lists no outputSchema"
        return f"{len(names)} tools in {pages} pages"

    async def search(self, client) -> str:
        result = await self.call(client, "search", {"query": "customer by id"})
        assert not result.is_error, text_of(result)
        hits = json.loads(text_of(result))["tools"]
        assert hits and hits[0]["name"] == "get-customer", f"hits {[h['name'] for h in hits]}"
        assert result.structured_content == {"tools": hits}, "structuredContent differs from the text"
        return f"{len(hits)} hits, first get-customer; structuredContent checked against search's outputSchema"

    async def execute(self, client) -> str:
        result = await self.call(client, "execute", {"tool": "list-orders", "inputs": {"status": "pending"}})
        assert not result.is_error, text_of(result)
        rows = json.loads(text_of(result))
        assert [r["id"] for r in rows] == [9, 6, 3], f"rows {rows}"
        assert result.structured_content == {"rows": rows}, f"structuredContent {result.structured_content!r:.200}"
        return f"list-orders: {len(rows)} rows"

    async def typed_output(self, client) -> str:
        # get-customer is listed with its outputSchema (exposure both); the client validates
        # structuredContent against it when the result arrives (and raises if it does not fit)
        result = await self.call(client, "get-customer", {"customer_id": 2})
        assert not result.is_error, text_of(result)
        rows = result.structured_content["rows"]
        assert rows[0]["name"] == "Grace Hopper", f"rows {rows}"
        schema = self.session(client)._tool_output_schemas.get("get-customer")
        columns = list(schema["properties"]["rows"]["items"]["properties"]) if schema else None
        assert columns == ["id", "name", "email", "country", "created_at"], f"outputSchema {schema!r:.300}"
        if self.name == "fastmcp":
            # FastMCP also turns structuredContent into typed data through the schema
            typed = await client.call_tool("get-customer", {"customer_id": 2})
            assert typed.data is not None and typed.data.rows[0].name == "Grace Hopper", f"data {typed.data!r:.200}"
            return "get-customer's structuredContent validated against its outputSchema; .data typed from it"
        return "get-customer's structuredContent validated against its outputSchema"

    async def tool_error(self, client) -> str:
        result = await self.call(client, "execute", {"tool": "get-customer", "inputs": {"customer_id": "abc"}})
        assert result.is_error, f"not an isError result: {result!r:.200}"
        error = json.loads(text_of(result))
        assert error["stage"] == "input_validation" and error["code"] == -32000, f"error {error}"
        missing = await self.call(client, "execute", {"tool": "get-customers", "inputs": {}})
        assert missing.is_error and json.loads(text_of(missing))["stage"] == "resolution", text_of(missing)
        # execute's own arguments are its input validation: a result too, coded -32602
        no_inputs = await self.call(client, "execute", {"tool": "get-customer"})
        bad = json.loads(text_of(no_inputs))
        assert no_inputs.is_error and bad["stage"] == "input_validation" and bad["code"] == -32602, text_of(no_inputs)
        if self.name == "fastmcp":
            from fastmcp.exceptions import ToolError

            try:
                await client.call_tool("execute", {"tool": "get-customer", "inputs": {"customer_id": "abc"}})
                raise AssertionError("call_tool did not raise ToolError")
            except ToolError as e:
                assert "input validation failed" in str(e), str(e)
        return f"isError: {error['error']}"

    async def protocol_error(self, client) -> str:
        unknown = await expect_rpc_error(-32602)(self.call(client, "no-such-tool", {}))
        return f"unknown tool name: {unknown}"

    async def unknown_method(self, client) -> str:
        request = types.Request[types.RequestParams | None, str](method="no/such_method", params=None)
        return await expect_rpc_error(-32601)(self.session(client).send_request(request, types.EmptyResult))

    async def prompts(self, client) -> str:
        listed = await client.list_prompts()
        prompts = listed if isinstance(listed, list) else listed.prompts
        prompt = {p.name: p for p in prompts}.get("order-update")
        assert prompt is not None, f"prompts {[p.name for p in prompts]}"
        assert {a.name: a.required for a in prompt.arguments} == {"order_id": True, "tone": False}, prompt.arguments
        got = await client.get_prompt("order-update", {"order_id": "3", "tone": "formal"})
        texts = [m.content.text for m in got.messages]
        assert len(got.messages) == 2, f"messages {got.messages}"
        assert "Tell the customer where order 3 is, in a formal tone." in texts, f"texts {texts}"
        return f"order-update: {len(got.messages)} messages"

    async def resources(self, client) -> str:
        if self.name == "fastmcp":
            listed = await client.list_resources()
            templates = await client.list_resource_templates()
            contents = await client.read_resource("shop://orders/3")
        else:
            listed = (await client.list_resources()).resources
            templates = (await client.list_resource_templates()).resource_templates
            contents = (await client.read_resource("shop://orders/3")).contents
        uris = [t.uri_template for t in templates]
        assert "shop://orders/{id}" in uris, f"templates {uris}"
        rows = json.loads(contents[0].text)
        assert rows[0]["customer"] == "Grace Hopper" and rows[0]["id"] == 3, f"contents {contents[0].text:.200}"
        return f"{len(listed)} resources, templates {uris}, read shop://orders/3"

    async def completion(self, client) -> str:
        tone = await client.complete(types.PromptReference(name="order-update"), {"name": "tone", "value": "f"})
        tone = tone if isinstance(tone, types.Completion) else tone.completion
        assert sorted(tone.values) == ["formal", "friendly"], f"tone values {tone.values}"
        ids = await client.complete(types.ResourceTemplateReference(uri="shop://orders/{id}"), {"name": "id", "value": "1"})
        ids = ids if isinstance(ids, types.Completion) else ids.completion
        assert ids.values == ["1", "10"], f"id values {ids.values}"
        return f"prompt argument tone: {tone.values}; template argument id: {ids.values}"

    async def logging_legacy(self, client) -> str:
        await client.set_logging_level("debug")
        levels = await self.logs_of_one_execute(client)
        await client.set_logging_level("emergency")
        return f"logging/setLevel debug, then {len(levels)} notifications/message during execute: {levels}"

    async def logging_modern(self) -> str:
        # 2026-07-28 has no logging/setLevel: a request opts in with _meta's logLevel (the SDK's
        # log_level; FastMCP always asks for debug)
        async with self.new_client(log_level="debug") as client:
            levels = await self.logs_of_one_execute(client)
        return f"_meta logLevel debug (no logging/setLevel at 2026-07-28): {len(levels)} notifications/message: {levels}"

    async def logs_of_one_execute(self, client) -> list[str]:
        """The levels of the log notifications one execute brings: debug (started) and info (done)."""
        self.logs.clear()
        result = await self.call(client, "execute", {"tool": "get-customer", "inputs": {"customer_id": 1}})
        assert not result.is_error, text_of(result)
        for _ in range(100):  # the callback may run after the call returned
            if len(self.logs) >= 2:
                break
            await asyncio.sleep(0.05)
        levels = [log.level for log in self.logs]
        assert "debug" in levels and "info" in levels, f"logs {self.logs}"
        assert all(log.logger == "hyperterse" for log in self.logs), f"loggers {[log.logger for log in self.logs]}"
        return levels

    async def execute_cold(self) -> str:
        # a fresh client whose first call is execute: it has listed no tool, so it cannot know of
        # header parameters (FastMCP was refused with -32020 while execute declared its tool one)
        async with self.new_client() as client:
            version = client.protocol_version
            arguments = {"tool": "get-customer", "inputs": {"customer_id": 3}}
            if self.name == "fastmcp":  # its own call_tool, as its users call it (raises ToolError on isError)
                result = await client.call_tool("execute", arguments)
            else:
                result = await self.call(client, "execute", arguments)
            assert not result.is_error, text_of(result)
        rows = json.loads(text_of(result))
        assert rows[0]["name"] == "Alan Turing", f"rows {rows}"
        return f"protocol {version}: get-customer through execute before tools/list"


async def main() -> int:
    if len(sys.argv) < 3 or sys.argv[1] not in ("mcp", "mcp-legacy", "fastmcp"):
        print("usage: scenario.py mcp|mcp-legacy|fastmcp URL [-v]", file=sys.stderr)
        return 2
    name = {"mcp": "python-mcp", "mcp-legacy": "python-mcp-legacy", "fastmcp": "fastmcp"}[sys.argv[1]]
    scenario = Scenario(name, sys.argv[2])
    try:
        await scenario.run()
    except Exception as e:  # connecting failed: every check that did not run counts as failed
        scenario.failed += 1
        print(f"FAIL {name} connect: {type(e).__name__}: {e}", flush=True)
    print(f"{name}: {scenario.passed} passed, {scenario.failed} failed, {scenario.not_applicable} n/a", flush=True)
    return 1 if scenario.failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
