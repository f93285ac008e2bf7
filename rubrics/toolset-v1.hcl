# Toolset, version 1: the installed set as the model sees it. A client
# that runs several MCP servers shows the model one list: every tool of
# every configured server. This rubric grades that list, not any one
# server: names that collide or look alike across servers, text of one
# server that names another server's tool, the limits clients put on a
# tool list, and what the whole list costs in tokens. No judge is needed.
#
# It reads an installed set (rubric score --config-file), whose tools each
# carry the server they came from under 'rubric/server' and are named
# SERVER/TOOL in the report. On one server's surface every tool is of the
# server '' and only the name rules and budgets apply.
#
# Findings of a tool (issues, each with a severity):
#   duplicate_name   high    another server lists a tool of the same name: a client either refuses one of
#                            them, renames them (Claude Code calls them mcp__SERVER__TOOL), or lets one shadow
#                            the other; the model cannot tell which it calls
#   lookalike_name   high    another server's tool name differs from this one but has the same confusable
#                            skeleton (Unicode TR39): the two read alike (a Cyrillic а for a Latin a)
#   confusable_name  medium  another server's tool name is made of the same words once case, separators,
#                            plurals, filler words (content, contents, the, of, all ...) and common synonyms
#                            (read/get/fetch, find/search/query, add/create/insert, remove/delete, edit/update,
#                            save/write, exec/run) are set aside: read_file and get_file_contents, createIssue and
#                            issue_create; a model choosing by name confuses them
#   names_other_tool medium  the tool's description or a parameter's names a tool that only another server
#                            has (a name written as an identifier, such as browser_navigate);
#                            high (shadowing) when the words around it (40 characters either side) prescribe:
#                            must, always, never, instead, do not, only, whenever, before, after
#                            (issue 17.2: cross-server shadowing)
#   more_duplicates  high    past the first 50 findings of a tool of each of duplicate_name, lookalike_name and
#   more_lookalikes  high    confusable_name, the rest, counted one finding each of its severity (1.2.0: each of
#   more_confusables medium  a server's 6,000 names of one skeleton read the whole group of them, which took
#                            32 s; 1.3.0: 2,000 servers with a tool of one name took 143 s and 5 GiB)
#   more_mentions    medium  past the first 50 mentions of other servers' tools in one tool, the rest, counted
#                            one medium finding each (whether each also prescribes is not read); the tool scores
#                            0 either way. (1.1.0: a text naming another server's tool thousands of times had a
#                            finding built for each, which passed the cost limit, and the whole set's run failed.)
#   name_openai      medium  the name is not what OpenAI's API takes for a function: letters, digits, _ and -,
#                            1 to 64 characters (^[a-zA-Z0-9_-]{1,64}$, the chat completions tools[].function.name
#                            rule; https://portkey.ai/error-library/input-validation-error-10046 quotes the error)
#   name_claude_code medium  Claude Code shows the tool as mcp__SERVER__TOOL, which the Anthropic API takes up
#                            to 64 characters (https://git.drupalcode.org/project/mcp/-/work_items/3569862 quotes
#                            "String should have at most 64 characters" for an mcp__... name)
#   name_cursor      low     server name and tool name together longer than 60 characters, which Cursor
#                            refuses (https://easymanage.com/res/docs/tutorials/ai-agent/chapter-3-mcp-advanced:
#                            "Server Name + Tool Name length must be <= 60 chars")
#   name_mcp         low     outside the MCP specification's advice (2025-11-25, tools, "Tool names"): 1 to 128
#                            characters of A-Z a-z 0-9 _ - . (https://github.com/webmachinelearning/webmcp/issues/145
#                            links it; SEP-986, https://modelcontextprotocol.io/community/seps/986-specify-format-for-tool-names)
#
# Findings of the set (warnings, and the "limits" section):
#   more than 128 tools: OpenAI's API takes at most 128 functions a request
#     (https://reference.aspose.com/pdf/net/aspose.pdf.ai/completioncreaterequest/tools, mirroring the API's
#     reference: "A max of 128 functions are supported"), and VS Code at most 128 tools a chat request
#     (https://www.mcpbundles.com/guides/how-many-tools: "VS Code allows 128 tools per chat request";
#     https://github.com/postmanlabs/postman-mcp-server/pull/26: "VS Code only supports up to 128 tools")
#   more than 40 tools: Cursor sends the model at most 40 tools of all its MCP servers
#     (https://easymanage.com/res/docs/tutorials/ai-agent/chapter-3-mcp-advanced: "Cursor allows maximum total
#     of 40 Tools from all MCP Servers"), a figure third parties report rather than Cursor's own reference
#   definition tokens above 10,000 (this rubric's own budget: 5% of a 200,000-token context, spent before
#     the user says a word) and above 50,000 (a quarter of it: unacceptable). Tokens are estimated, as the
#     Gradable rubric estimates them: the UTF-8 bytes of each tool's canonical JSON, without the
#     'rubric/server' member the set adds, / 4, summed over the tools.
#
# Scoring: a tool starts at 100 and loses 40 points for each high finding,
# 15 for each medium and 5 for each low, down to 0. The set's score is out
# of 100: half the mean of its tools' scores, a quarter how far its tool
# count is within Cursor's 40 (1 at 40 tools or fewer, 0 at 128 or more,
# linear between), a quarter how far its tokens are within the budget (1 at
# 10,000 or fewer, 0 at 50,000 or more). Grades: A >= 90, B >= 75, C >= 60,
# D >= 40, F below.
#
# The fix list: a finding gains what fixing it earns its tool, its own
# cost while the tool's findings cost no more than 100 (past that, what
# fixing them all would earn is shared among them by cost), and moves the
# set's score by half of that over the number of tools.

rubric "toolset" {
  version     = "1.3.0"
  title       = "Toolset"
  description = "The installed set as one surface: tool names that collide or look alike across servers, text naming another server's tool, client limits on names and counts, and the set's definition tokens."
  round       = 1

  scale {
    min = 0
    max = 100
  }

  tool {
    signals {
      server = "'rubric/server' in tool && is_string(tool['rubric/server']) ? string(tool['rubric/server']) : ''"
      me     = "surface_signals.entryOf[canonical_json([tool.name, signals.server])]"

      # Each check of a name against other servers' names lists the
      # first 50 findings of a tool and counts the others from the
      # sizes of groups made once a surface: one server may have
      # thousands of tools of a skeleton, or thousands of servers a tool
      # of one name, and a comprehension through them all for each tool
      # would cost the cube of their number under the cost tracker. A
      # server has one tool of a name, so a group of one name holds this
      # tool and one tool of each other server.

      # The same name on other servers: how many, and the first 50.
      duplicateCount = "size(surface_signals.byName[tool.name]) - 1"
      duplicates = <<-CEL
        cel.bind(g, surface_signals.byName[tool.name], cel.bind(l, (size(g) <= 51 ? g : g.slice(0, 51)).filter(e, e.server != signals.server),
          size(l) <= 50 ? l : l.slice(0, 50)))
      CEL

      # Other names of other servers that read alike (the same
      # confusable skeleton): how many, and the first 50, read from the
      # first 100 other servers that have a tool of the skeleton, 51 tools
      # of each at most.
      skeletonOthers = <<-CEL
        cel.bind(g, surface_signals.skeletonServers[signals.me.skeleton],
          (size(g) <= 101 ? g : g.slice(0, 101)).filter(s, s != signals.server))
      CEL
      lookalikeCount = <<-CEL
        size(surface_signals.bySkeleton[signals.me.skeleton])
        - size(surface_signals.bySkeletonServer[canonical_json([signals.me.skeleton, signals.server])])
        - signals.duplicateCount
      CEL
      lookalikes = <<-CEL
        cel.bind(l, signals.skeletonOthers.map(s, cel.bind(g, surface_signals.bySkeletonServer[canonical_json([signals.me.skeleton, s])],
            size(g) <= 51 ? g : g.slice(0, 51))).flatten().filter(e, e.name != tool.name),
          size(l) <= 50 ? l : l.slice(0, 50))
      CEL

      # Other names of other servers made of the same words but not of
      # the same skeleton (those are look-alikes): how many, and the
      # first 50, read from the first 100 other servers that have a tool
      # of the words, from each the first 50 + k tools of them, where k
      # of them have this skeleton (so that at least 50 are such names).
      keyOthers = <<-CEL
        signals.me.key == '' ? [] : cel.bind(g, surface_signals.keyServers[signals.me.key],
          (size(g) <= 101 ? g : g.slice(0, 101)).filter(s, s != signals.server))
      CEL
      confusableCount = <<-CEL
        signals.me.key == '' ? 0 : (
          size(surface_signals.byKey[signals.me.key])
          - size(surface_signals.byKeyServer[canonical_json([signals.me.key, signals.server])]))
          - (size(surface_signals.byKeySkeleton[canonical_json([signals.me.key, signals.me.skeleton])])
          - size(surface_signals.byKeySkeletonServer[canonical_json([signals.me.key, signals.me.skeleton, signals.server])]))
      CEL
      confusables = <<-CEL
        cel.bind(l, signals.keyOthers.map(s, cel.bind(g, surface_signals.byKeyServer[canonical_json([signals.me.key, s])],
            cel.bind(ks, canonical_json([signals.me.key, signals.me.skeleton, s]), cel.bind(n, 50 + (ks in surface_signals.byKeySkeletonServer ? size(surface_signals.byKeySkeletonServer[ks]) : 0),
              size(g) <= n ? g : g.slice(0, n))))).flatten().filter(e, e.skeleton != signals.me.skeleton),
          size(l) <= 50 ? l : l.slice(0, 50))
      CEL

      # Tool names of other servers written in this tool's text: every
      # word of its strings but its name (letters and digits joined by
      # _ - .) that is the name of another server's tool written as an
      # identifier, which its own server has no tool of.
      # find_all_in keeps only those words, in one call, so no
      # comprehension goes through every word (a comprehension runs in
      # the square of its length under the cost tracker).
      rest  = "omit(tool, ['rubric/server', 'name'])"
      found = "find_all_in(string_values(signals.rest), r'[A-Za-z0-9]+([_.-][A-Za-z0-9]+)*', surface_signals.identNames, surface_signals.ownNames[signals.server])"

      # The first 50 of them, with where each is and the words around it;
      # the rest are counted (more).
      mentions = <<-CEL
        cel.bind(ts, texts(signals.rest, false),
          (size(signals.found) <= 50 ? signals.found : signals.found.slice(0, 50)).map(m, cel.bind(text, ts[m.index].text, {
            'path': ts[m.index].path, 'named': m.text,
            'servers': surface_signals.byName[m.text].map(e, e.server),
            'around': text.substring(m.start > 40 ? m.start - 40 : 0, m.end + 40 < size(text) ? m.end + 40 : size(text))
          })))
      CEL
      more = "size(signals.found) - size(signals.mentions)"

      claudeName = "'mcp__' + signals.server + '__' + tool.name"

      findings = <<-CEL
        signals.duplicates.map(e, {'check': 'duplicate_name', 'severity': 'high',
          'message': 'the server ' + e.server + ' also has a tool named ' + tool.name + ': the model cannot tell which one it calls'})
        + (signals.duplicateCount <= size(signals.duplicates) ? [] : cel.bind(n, signals.duplicateCount - size(signals.duplicates), [{
          'check': 'more_duplicates', 'severity': 'high', 'count': n,
          'message': string(n) + (n == 1 ? ' more server has' : ' more servers have') + ' a tool named ' + tool.name + ', not listed one by one: each counts as a high finding, and the tool scores 0 either way'}]))
        + signals.lookalikes.map(e, {'check': 'lookalike_name', 'severity': 'high',
          'message': 'the name reads like ' + e.name + ' of the server ' + e.server + ' (the same confusable skeleton; scripts here: ' + scripts(tool.name).join(', ') + ')'})
        + (signals.lookalikeCount <= size(signals.lookalikes) ? [] : cel.bind(n, signals.lookalikeCount - size(signals.lookalikes), [{
          'check': 'more_lookalikes', 'severity': 'high', 'count': n,
          'message': string(n) + (n == 1 ? ' more name' : ' more names') + ' of other servers that read like this one, not listed one by one: each counts as a high finding, and the tool scores 0 either way'}]))
        + signals.confusables.map(e, {'check': 'confusable_name', 'severity': 'medium',
          'message': 'the name says what ' + e.name + ' of the server ' + e.server + ' says (the words "' + signals.me.key + '"): say what sets them apart'})
        + (signals.confusableCount <= size(signals.confusables) ? [] : cel.bind(n, signals.confusableCount - size(signals.confusables), [{
          'check': 'more_confusables', 'severity': 'medium', 'count': n,
          'message': string(n) + (n == 1 ? ' more name' : ' more names') + ' of other servers made of the words "' + signals.me.key + '", not listed one by one: each counts as a medium finding, and the tool scores 0 either way'}]))
        + signals.mentions.map(m, cel.bind(prescribes,
          m.around.matches(r"(?i)\b(must|always|never|instead|do not|don't|only|whenever|before|after)\b"), {
          'check': 'names_other_tool', 'severity': prescribes ? 'high' : 'medium',
          'message': (prescribes ? 'shadowing: ' : '') + 'the text at ' + m.path + ' names ' + m.named + ', a tool of ' + m.servers.join(', ')
            + (prescribes ? ', and prescribes how to use it' : '') + ': "' + visible(m.around) + '"'}))
        + (signals.more == 0 ? [] : [{'check': 'more_mentions', 'severity': 'medium', 'count': signals.more,
          'message': string(signals.more) + (signals.more == 1 ? ' more mention' : ' more mentions') + ' of other servers\' tools past the first 50, not listed one by one: each counts as a medium finding (whether it also prescribes how to use the tool is not read), and the tool scores 0 either way'}])
        + (tool.name.matches(r'^[a-zA-Z0-9_-]{1,64}$') ? [] : [{'check': 'name_openai', 'severity': 'medium',
          'message': 'OpenAI\'s API refuses this name as a function name: it takes letters, digits, _ and -, at most 64 characters'}])
        + (signals.server == '' || size(signals.claudeName) <= 64 ? [] : [{'check': 'name_claude_code', 'severity': 'medium',
          'message': 'Claude Code names this tool ' + signals.claudeName + ', ' + string(size(signals.claudeName)) + ' characters: the API takes 64'}])
        + (signals.server == '' || size(signals.server) + size(tool.name) <= 60 ? [] : [{'check': 'name_cursor', 'severity': 'low',
          'message': 'server and tool name together are ' + string(size(signals.server) + size(tool.name)) + ' characters: Cursor takes 60'}])
        + (tool.name.matches(r'^[A-Za-z0-9_.-]{1,128}$') ? [] : [{'check': 'name_mcp', 'severity': 'low',
          'message': 'the MCP specification advises tool names of 1 to 128 characters of A-Z, a-z, 0-9, _, - and .'}])
      CEL
    }

    # A more_ finding stands for its count of findings.
    metric "high" { value = "int(sum(signals.findings.filter(f, f.severity == 'high').map(f, 'count' in f ? f.count : 1)))" }
    metric "medium" { value = "int(sum(signals.findings.filter(f, f.severity == 'medium').map(f, 'count' in f ? f.count : 1)))" }
    metric "low" { value = "int(sum(signals.findings.filter(f, f.severity == 'low').map(f, 'count' in f ? f.count : 1)))" }
    metric "tokens" { value = "size(bytes(canonical_json(omit(tool, ['rubric/server'])))) / 4" }

    # What the findings cost the tool.
    metric "cost" { value = "40 * metrics.high + 15 * metrics.medium + 5 * metrics.low" }

    score = "clamp(100 - metrics.cost, 0, 100)"

    # A finding gains its cost while the tool's findings cost no more
    # than 100; past that, fixing one earns nothing until the rest are
    # fixed, and what fixing them all earns (100) is shared by cost.
    issues = <<-CEL
      signals.findings.map(f, cel.bind(points, ('count' in f ? f.count : 1) * (f.severity == 'high' ? 40 : f.severity == 'medium' ? 15 : 5), {
        'check': f.check, 'severity': f.severity, 'params': [],
        'points': points,
        'gain': min([metrics.cost, 100]) * points / metrics.cost,
        'message': f.message
      }))
    CEL

    # What a fix list calls the checks of the issues.
    titles = {
      duplicate_name   = "Duplicate name"
      lookalike_name   = "Look-alike name"
      confusable_name  = "Confusable name"
      names_other_tool = "Names another server's tool"
      more_mentions    = "More names of other servers' tools"
      more_duplicates  = "More duplicate names"
      more_lookalikes  = "More look-alike names"
      more_confusables = "More confusable names"
      name_openai      = "Name OpenAI refuses"
      name_claude_code = "Name too long for Claude Code"
      name_cursor      = "Name too long for Cursor"
      name_mcp         = "Name outside MCP's advice"
    }

    report {
      server = "signals.server"
    }
  }

  surface {
    signals {
      # Verbs that name one action, by the word they are counted as.
      synonyms = <<-CEL
        {'read': 'get', 'fetch': 'get', 'retrieve': 'get', 'load': 'get', 'show': 'get', 'view': 'get',
         'find': 'search', 'query': 'search', 'lookup': 'search',
         'add': 'create', 'insert': 'create', 'new': 'create', 'make': 'create',
         'remove': 'delete', 'rm': 'delete', 'destroy': 'delete', 'del': 'delete',
         'edit': 'update', 'modify': 'update', 'patch': 'update', 'change': 'update',
         'save': 'write', 'put': 'write', 'exec': 'run', 'execute': 'run', 'invoke': 'run',
         'ls': 'list', 'enumerate': 'list', 'dir': 'directory', 'repo': 'repository'}
      CEL
      fillers = "['content', 'contents', 'the', 'a', 'an', 'of', 'for', 'by', 'to', 'from', 'in', 'on', 'all', 'tool', 'mcp']"

      entries = <<-CEL
        surface.tools.map(t, cel.bind(words,
          find_all(t.name, r'[A-Z]?[a-z]+|[A-Z]+|[0-9]+').map(m, lower(m.text)).map(w,
            w.endsWith('ies') && size(w) > 4 ? w.substring(0, size(w) - 3) + 'y'
            : w.endsWith('s') && !w.endsWith('ss') && size(w) > 3 ? w.substring(0, size(w) - 1) : w
          ).map(w, w in surface_signals.synonyms ? surface_signals.synonyms[w] : w).filter(w, !(w in surface_signals.fillers)),
          {
            'server': 'rubric/server' in t && is_string(t['rubric/server']) ? string(t['rubric/server']) : '',
            'name': t.name,
            'skeleton': skeleton(t.name),
            'ident': t.name.matches(r'^[A-Za-z][A-Za-z0-9]*([_.-][A-Za-z0-9]+)+$|^[a-z]+[A-Z][A-Za-z0-9]*$'),
            'key': words.distinct().sort().join(' ')
          }))
      CEL
      byName     = "group_by(surface_signals.entries, surface_signals.entries.map(e, e.name))"

      # The names a tool's text may mention: those of tools written as
      # identifiers (two words joined by _ - . or a capital inside: a
      # plain word such as "search" is no mention), but the names of its
      # own server's tools, by server.
      serverList = "surface_signals.entries.map(e, e.server).distinct()"
      namesOf    = "group_by(surface_signals.entries.map(e, e.name), surface_signals.entries.map(e, e.server))"
      identNames = "omit(surface_signals.byName, surface_signals.entries.filter(e, !e.ident).map(e, e.name))"
      ownNames   = "index_by(surface_signals.serverList.map(s, index_by(surface_signals.namesOf[s], surface_signals.namesOf[s])), surface_signals.serverList)"

      # Each tool's entry by its name and server; the entries by
      # skeleton, by words and by both, each over all servers and by
      # server; and the servers that have each skeleton and each words
      # (see the tool signals duplicates to confusables).
      entryOf             = "index_by(surface_signals.entries, surface_signals.entries.map(e, canonical_json([e.name, e.server])))"
      bySkeleton          = "group_by(surface_signals.entries, surface_signals.entries.map(e, e.skeleton))"
      byKey               = "group_by(surface_signals.entries, surface_signals.entries.map(e, e.key))"
      byKeySkeleton       = "group_by(surface_signals.entries, surface_signals.entries.map(e, canonical_json([e.key, e.skeleton])))"
      bySkeletonServer    = "group_by(surface_signals.entries, surface_signals.entries.map(e, canonical_json([e.skeleton, e.server])))"
      byKeyServer         = "group_by(surface_signals.entries, surface_signals.entries.map(e, canonical_json([e.key, e.server])))"
      byKeySkeletonServer = "group_by(surface_signals.entries, surface_signals.entries.map(e, canonical_json([e.key, e.skeleton, e.server])))"
      skeletonServers = <<-CEL
        cel.bind(ones, unique_by(surface_signals.entries, surface_signals.entries.map(e, canonical_json([e.skeleton, e.server]))),
          group_by(ones.map(e, e.server), ones.map(e, e.skeleton)))
      CEL
      keyServers = <<-CEL
        cel.bind(ones, unique_by(surface_signals.entries, surface_signals.entries.map(e, canonical_json([e.key, e.server]))),
          group_by(ones.map(e, e.server), ones.map(e, e.key)))
      CEL

      servers = "'servers' in surface.server && is_list(surface.server.servers) ? surface.server.servers : []"
    }

    metric "tools" { value = "size(surface.tools)" }
    metric "servers" { value = "size(surface_signals.servers)" }
    metric "definitionTokens" { value = "round(sum(tools.map(t, t.tokens)), 0)" }
    metric "definitionTokensSource" { value = "'estimated'" }
    metric "high" { value = "sum(tools.map(t, t.high))" }
    metric "medium" { value = "sum(tools.map(t, t.medium))" }
    metric "low" { value = "sum(tools.map(t, t.low))" }
    metric "names" { value = "size(tools) == 0 ? num(100) : mean(tools.map(t, t.score))" }
    metric "count" { value = "efficiency(metrics.tools, 40, 128)" }
    metric "budget" { value = "efficiency(metrics.definitionTokens, 10000, 50000)" }

    score = "size(tools) == 0 ? dyn(null) : dyn(metrics.names / 2 + 25 * metrics.count + 25 * metrics.budget)"

    warnings = <<-CEL
      (metrics.tools > 128 ? [string(metrics.tools) + ' tools: more than OpenAI\'s API (128 functions a request) and VS Code (128 tools a chat request) take'] : [])
      + (metrics.tools > 40 ? [string(metrics.tools) + ' tools: more than the 40 Cursor sends the model'] : [])
      + (metrics.definitionTokens > 50000 ? ['about ' + string(metrics.definitionTokens) + ' tokens of definitions: above 50,000, a quarter of a 200,000-token context before the user says a word']
         : metrics.definitionTokens > 10000 ? ['about ' + string(metrics.definitionTokens) + ' tokens of definitions: above the budget of 10,000'] : [])
    CEL

    report "limits" {
      openai_tools    = "{'limit': 128, 'tools': metrics.tools, 'over': metrics.tools > 128}"
      vscode_tools    = "{'limit': 128, 'tools': metrics.tools, 'over': metrics.tools > 128}"
      cursor_tools    = "{'limit': 40, 'tools': metrics.tools, 'over': metrics.tools > 40}"
      token_budget    = "{'budget': 10000, 'unacceptable': 50000, 'tokens': metrics.definitionTokens, 'estimated': true}"
    }

    report "servers" {
      tools = <<-CEL
        cel.bind(by, group_by(tools, surface_signals.entries.map(e, e.server)),
          surface_signals.servers.map(s, {
            'name': s.name, 'tools': s.name in by ? size(by[s.name]) : 0,
            'tokens': s.name in by ? round(sum(by[s.name].map(t, t.tokens)), 0) : num(0)
          }))
      CEL
    }
  }

  # Two servers with a tool of the same name: each copy has one high
  # finding (duplicate_name) and nothing else, so 100 - 40 = 60.
  fixes {
    unit    = "points of the tool's score, shared by cost when its findings cost over 100"
    overall = "the set's score"
    moves   = "gain / (2 * tool_count)"
  }

  test "the same name on two servers" {
    surface = <<-JSON
      {"format": "set", "source": "cfg.json", "tools": [
        {"name": "search", "description": "Search the commits of a repository.", "rubric/server": "git"},
        {"name": "search", "description": "Search the web for pages.", "rubric/server": "web"}
      ]}
    JSON
    expect = {
      "tools.git/search.score" = 60
      "tools.web/search.score" = 60
    }
  }

  grades = { A = 90, B = 75, C = 60, D = 40, F = 0 }
}
