package httpjudge

import "github.com/rubricmcp/rubric/judges/internal/judgeopt"

// A judge sees its options, not where they came from: --base-url, a
// base-url key in rubric.yaml and RUBRIC_BASE_URL all reach it as the
// option base_url, as do --judge-option base_url=URL and a --judge
// reference (openai:base_url=URL). Its messages name the flag, which the
// CLI rewrites as the config file's key or the variable when one of those
// gave the value, and the option for the other two ways.

// BaseURLSetting names the ways a user sets a judge's base URL, for a
// message that tells them to check or change it, as judgeopt words every
// option's (NAME for the judge's name, which the several judges built on
// this package differ in).
var BaseURLSetting = judgeopt.Setting("NAME", "base_url", "URL")

// setting names the ways a user sets the option key of c's judge, with
// an example value, as judgeopt.Setting words them.
func (c *Client) setting(key, example string) string {
	name := c.Judge
	if name == "" {
		name = "NAME"
	}
	return judgeopt.Setting(name, key, example)
}
