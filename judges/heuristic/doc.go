// Package heuristic is rubric's offline judge for the TDQS v1.3 rubric and
// the Gradable v1 methodology: it answers their questions by word and pattern cues instead of a
// model, so a run needs no network, no key and no money, and the same
// definitions always get the same bytes back.
//
// It answers six kinds of question, read from the question's structured
// input only (the prompt text is never parsed):
//
//   - tdqs.tool: the six TDQS dimensions of one tool, 1 to 5 each, with a
//     justification that cites the cue that fired, and whether the
//     description contradicts the annotations;
//   - tdqs.coherence: the four coherence dimensions of a server's tools;
//   - gradable.tasks: requests a user would make of each tool, from its
//     description, parameters and verb synonyms, never naming the tool;
//   - gradable.selection: the tool BM25 retrieval picks for a task, its
//     arguments, whether a reader of the definition would confirm first,
//     and the steps;
//   - gradable.defects: the three Gradable description defects of a tool
//     and a suggested description built from the definition alone;
//   - gradable.confusable: pairs of tools alike in name and description.
//
// The Gradable cues are described in README.md.
//
// Signals the engine may send beside a tool are ignored: everything is
// computed from the definition (parameters are inputSchema.properties,
// with no $ref resolution), so the judge works from a bare tools/list.
//
// The scores are a cheap, explainable stand-in for a model judge, not a
// replacement: every justification and summary says it is a heuristic's.
// Agreement with published scores is measured in agreement_test.go
// against calibration/dev (see README.md for the figures).
//
// # Cues
//
// The judge is a thin dispatcher over three internal packages of one idea
// each: internal/tdqs (the TDQS cues), internal/gradable (the Gradable
// harness: tasks, selection, defects, confusable pairs) and internal/lex
// (the text utilities and word lists both share).
//
// Every word list is in a cues file: internal/tdqs/cues.go for TDQS,
// internal/gradable/cues.go for Gradable, internal/lex/vocabulary.go for
// the lists both read. Text is matched as lower-case words;
// Chinese and Japanese characters count one word each.
//
//	dimension                cues                                                score
//	purpose_clarity          leading action verb (after "This tool lets you";    1 missing, placeholder or only vague words
//	                         "Lists", "unapprove" accepted); words beyond the    2 nothing beyond the name or title
//	                         name and title; vague verbs and generic nouns;      3 no leading verb, a vague one, or too little
//	                         a sibling named, or contrast ("instead", "unlike")    around it
//	                                                                             4 specific verb and resource
//	                                                                             5 that, and a named alternative or contrast
//	usage_guidelines         when ("use this when"), when-not ("do not use",     1 missing, placeholder or <= 2 words
//	                         "avoid", "only for"), alternative ("instead",       2 no cue; 3 implied only ("if", "e.g.")
//	                         "prefer"), a named tool, prerequisite ("before",    4 one explicit cue
//	                         "after", "requires")                                5 named alternative with when/when-not/instead,
//	                                                                               or when + when-not + instead
//	behavioral_transparency  nine disclosure groups: side effects, safety,       1 contradicts the annotations (flag set)
//	                         auth, rate limits and cost, pagination and size,    missing, placeholder or <= 2 words 1 (2
//	                         return format, errors, constraints, timing/state;   annotated); else 1 + ln(1+w)/2 + k/8,
//	                         k = groups present; words w; contradiction checks   + 1/2 annotated, rounded half up
//	parameter_semantics      schema description coverage; parameters named in    no parameters 4; coverage > 80% 3 (+1 named
//	                         the text; format cues ("e.g.", "default", units)      with a format cue); 50-80% 3; < 50% 1-4 by
//	                                                                               how many undescribed ones the text explains
//	conciseness_structure    word-count bands; purpose first; filler; repeats;   missing 1; <= 2 words, placeholder, restated
//	                         60+ word sentences; for 3-10 words, whether the       name 2; 3-10 words 5 if the schema describes
//	                         schema describes the parameters                       every parameter, 3 if 3+ undescribed, else 4;
//	                                                                               11-100 5, 101-160 4, 161-250 3, longer 2;
//	                                                                               -1 per fault (max -2)
//	contextual_completeness  length; usage and behaviour cues; return values     start 3 (2 if <= 5 words); +1 each for 30+
//	                         (output schema or "returns"); side effects of a       words, usage >= 4, behaviour; -1 each for an
//	                         tool that acts; parameters the schema does not        acting tool hiding its result or effect, a
//	                         describe; complexity (5+ parameters or nested         complex tool in < 30 words; -1 for 1-2
//	                         objects)                                              undescribed parameters, -2 for 3+
//
//	coherence dimension      cues                                                score
//	disambiguation           vague names; names equal but for a version word;    issues / tools: 0 5, <= 0.1 4, <= 0.25 3,
//	                         descriptions alike (TF-IDF cosine >= 0.7) that the    <= 0.5 2, more 1
//	                         names do not tell apart
//	naming_consistency       case conventions; where the verb sits after a       one convention: 5 (>= 80% place the verb
//	                         shared prefix                                         alike), 4, 3; mixed: 4 to 1 by the minority
//	tool_count               the tool count; the share that is vague or alike    3-15 5, 16-20 4, 21-25 3, 26-50 2, 50+ 1;
//	                                                                               2 tools 3, 1 tool 2; -1/-2 for redundancy
//	completeness             names as lifecycle operation + resource             share of create/read/update/delete for each
//	                                                                               resource changed: >= 0.9 5 ... < 0.3 1
package heuristic
