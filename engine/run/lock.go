package run

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/markdown"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/atomicfile"
)

// LockServer reads the one server src and writes its tools as the lock
// at path, saying how many on w.
func (s *Session) LockServer(ctx context.Context, src Source, path string, w io.Writer) error {
	surf, err := s.Export(ctx, src.Transport, src.Target)
	if err != nil {
		return err
	}
	if err := lock.New(surf).Write(path); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "locked %d tools in %s\n", len(surf.Tools), path)
	return err
}

// Verify is what VerifyServer checks against, and where it reports.
type Verify struct {
	// Lock is the lock file read, and File its path, as the reports name
	// it.
	Lock *lock.File
	File string
	// Markdown, when set, is a file that receives the verdict as
	// Markdown for a CI job summary, an unreadable server's included.
	Markdown string
	// Approve is the command that approves a change by writing the lock
	// again; empty, it is lock.Approve(File), of one server's lock.
	Approve string
}

// VerifyServer reads the one server src again and writes to w each tool
// added, removed or changed since v.Lock locked, with a diff; it returns
// how many differ.
func (s *Session) VerifyServer(ctx context.Context, src Source, v Verify, w io.Writer) (changed int, err error) {
	surf, err := s.Export(ctx, src.Transport, src.Target)
	var changes []lock.Change
	if err == nil {
		changes, err = lock.Diff(v.Lock, surf)
	}
	if v.Markdown != "" && ctx.Err() == nil {
		if werr := atomicfile.Write(v.Markdown, func(w io.Writer) error { return writeVerifyMarkdown(w, v, changes, err) }); werr != nil {
			return 0, fmt.Errorf("write %s: %w", v.Markdown, werr)
		}
	}
	if err != nil {
		return 0, err
	}
	return len(changes), lock.WriteText(w, changes)
}

// writeVerifyMarkdown writes the verdict of rubric verify: what differs
// from the lock file, or that nothing does, or why the server could not
// be read.
func writeVerifyMarkdown(w io.Writer, v Verify, changes []lock.Change, readErr error) error {
	name := markdown.CellCode(v.File)
	approve := v.Approve
	if approve == "" {
		approve = lock.Approve(v.File)
	}
	var err error
	switch {
	case readErr != nil:
		// A read limit the server passed names the flag that sets it.
		_, err = fmt.Fprintf(w, "## rubric verify: INVALID\n\nThe tools could not be checked against %s: %s\n", name, markdown.Inline(transport.LimitAdvice(readErr.Error())))
	case len(changes) == 0:
		_, err = fmt.Fprintf(w, "## rubric verify: every tool is as %s locked it\n", name)
	default:
		if _, err = fmt.Fprintf(w, "## rubric verify: %s from %s\n\nA tool added, removed or changed since it was locked fails this check; if the change is meant, run %s with the server's command or target, and commit %s.\n\n", lock.Differ(len(changes)), name, markdown.CellCode(approve), name); err == nil {
			err = lock.WriteMarkdown(w, changes)
		}
	}
	return err
}

// LockServers reads every server of the configuration config and writes
// their tools as one lock to path, saying how many on w. When a server
// cannot be read it names each on stderr and locks nothing, since a lock
// must hold every server.
func (s *Session) LockServers(ctx context.Context, config string, servers []Server, path string, o ServersOptions, w, stderr io.Writer) error {
	results := s.ReadServers(ctx, servers, nil, o)
	if err := ctx.Err(); err != nil {
		return err
	}
	if unread, text := unreadServers(results); len(unread) > 0 {
		_, _ = fmt.Fprint(stderr, text)
		return fmt.Errorf("%d of %d servers could not be read (%s): nothing is locked, since a lock must hold every server", len(unread), len(results), strings.Join(unread, ", "))
	}
	var members []surface.Member
	tools := 0
	for _, r := range results {
		members = append(members, surface.Member{Name: r.Name, Surface: r.Surface})
		tools += len(r.Surface.Tools)
	}
	if err := lock.NewSet(config, members).Write(path); err != nil {
		return err
	}
	disabled := ""
	if len(o.Disabled) > 0 {
		disabled = fmt.Sprintf(" (left out, disabled in the configuration: %s)", strings.Join(o.Disabled, ", "))
	}
	_, err := fmt.Fprintf(w, "locked %s of %s in %s%s\n", report.Plural(tools, "tool"), report.Plural(len(results), "server"), path, disabled)
	return err
}

// VerifyServers reads every server again and writes to w what differs
// from the set lock locked: a server added to or removed from the
// configuration, and each server's changed tools with a diff. It returns
// how many servers differ, and an error naming the servers that could
// not be read, after the others are compared.
func (s *Session) VerifyServers(ctx context.Context, servers []Server, locked *lock.File, o ServersOptions, w io.Writer) (changed int, err error) {
	results := s.ReadServers(ctx, servers, nil, o)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	unread, text := unreadServers(results)
	var b strings.Builder
	b.WriteString(text)
	seen := map[string]bool{}
	for _, r := range results {
		seen[r.Name] = true
		ls, ok := locked.Find(r.Name)
		switch {
		case !ok:
			changed++
			fmt.Fprintf(&b, "added server: %s\n", r.Name)
		case r.Failed == nil:
			changes, err := lock.Diff(ls.Lock(), r.Surface)
			if err != nil {
				return 0, err
			}
			if len(changes) == 0 {
				continue
			}
			changed++
			fmt.Fprintf(&b, "server %s:\n", r.Name)
			var one strings.Builder
			if err := lock.WriteText(&one, changes); err != nil {
				return 0, err
			}
			for _, line := range strings.SplitAfter(strings.TrimSuffix(one.String(), "\n"), "\n") {
				b.WriteString("  " + line)
			}
			b.WriteString("\n")
		}
	}
	for _, ls := range locked.Servers {
		if !seen[ls.Name] {
			changed++
			if slices.Contains(o.Disabled, ls.Name) {
				fmt.Fprintf(&b, "removed server: %s (disabled in the configuration)\n", ls.Name)
				continue
			}
			fmt.Fprintf(&b, "removed server: %s\n", ls.Name)
		}
	}
	// The disabled servers the lock never held are left out, as lock
	// left them out: said once, as lock says it.
	var leftOut []string
	for _, name := range o.Disabled {
		if _, ok := locked.Find(name); !ok {
			leftOut = append(leftOut, name)
		}
	}
	switch {
	case changed == 0 && len(unread) == 0 && len(leftOut) > 0:
		fmt.Fprintf(&b, "verified: every tool of every server is as locked (left out, disabled in the configuration: %s)\n", strings.Join(leftOut, ", "))
	case changed == 0 && len(unread) == 0:
		b.WriteString("verified: every tool of every server is as locked\n")
	case len(leftOut) > 0:
		fmt.Fprintf(&b, "left out, disabled in the configuration: %s\n", strings.Join(leftOut, ", "))
	}
	if _, err := fmt.Fprint(w, b.String()); err != nil {
		return 0, err
	}
	if len(unread) > 0 {
		return changed, fmt.Errorf("%d of %d servers could not be read: %s", len(unread), len(results), strings.Join(unread, ", "))
	}
	return changed, nil
}

// unreadServers are the names of the servers that could not be read,
// and a line for each saying why.
func unreadServers(results []ServerResult) (names []string, text string) {
	var b strings.Builder
	for _, r := range results {
		if r.Failed != nil {
			names = append(names, r.Name)
			fmt.Fprintf(&b, "unreadable: %s: %s\n", r.Name, r.Failed.Reason)
		}
	}
	return names, b.String()
}
