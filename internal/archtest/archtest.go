// Package archtest holds the test of the import graph's direction: the
// engine imports no plugin and no judge, and the plugin packages import no
// judge. Data and dependencies go one way, from the command line through
// the plugins and judges to the engine. It also holds README.md's package
// table ("How it is built") to the packages the module has.
package archtest
