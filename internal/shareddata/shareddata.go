// Package shareddata says where the shared data folder is: the NER corpora,
// presidio-research's generated sets, the gazetteers and the real documents
// that the evaluation, the bench, the gazetteer generator and some tests
// read. It is one variable, $REDACTD_SHARED_DATA; by default the folder
// ../shared/data beside the repository (the checkout that holds go.mod),
// which is where a developer's machine and CI keep it.
//
// The daemon never reads it: the appliance runs on what it embeds and
// what setup installs.
package shareddata

import (
	"os"
	"path/filepath"
	"strings"
)

// Env names the variable that overrides the default location.
const Env = "REDACTD_SHARED_DATA"

// Dir returns the shared data folder: $REDACTD_SHARED_DATA when set, else
// ../shared/data beside the nearest folder at or above the working
// directory that holds go.mod, else ../shared/data relative to the working
// directory. The folder need not exist; callers that need a file skip or
// fail with its path.
func Dir() string {
	if d := os.Getenv(Env); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "data")
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(d), "shared", "data")
		}
		if filepath.Dir(d) == d {
			return filepath.Join(wd, "..", "shared", "data")
		}
	}
}

// Path joins parts onto Dir.
func Path(parts ...string) string {
	return filepath.Join(append([]string{Dir()}, parts...)...)
}

// FetchedEnv names the variable that overrides where fetched repositories
// lie.
const FetchedEnv = "REDACTD_FETCHED"

// Fetched returns the git directory of a public repository ("owner/name")
// fetched for its data and read where it lies, never committed: under
// $REDACTD_FETCHED, else ../.mirror beside the checkout (the development
// machines' snapshot store), as owner+name/repo. The directory need not
// exist; a generator that needs it skips the output that reads it.
func Fetched(repo string) string {
	base := os.Getenv(FetchedEnv)
	if base == "" {
		base = filepath.Join(filepath.Dir(filepath.Dir(Dir())), ".mirror")
	}
	return filepath.Join(base, strings.ReplaceAll(repo, "/", "+"), "repo")
}
