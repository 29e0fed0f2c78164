package main

// `hangar media upload <file>...` stores files with Hangar as this workspace and prints a
// markdown embed per file, `![name](<url>)`, whose URL is a signed inline link that members
// can open (it lasts the longest link lifetime Hangar allows; deleting the file revokes it).
// `hangar media list` prints the workspace's files.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

func init() {
	register("media", command{summary: "upload files for the chat (prints markdown embeds), list them", run: runMedia})
}

type mediaFile struct {
	ID        string `json:"id"`
	Filename  string `json:"filename"`
	Kind      string `json:"kind"`
	MimeType  string `json:"mime_type"`
	SizeBytes int64  `json:"size_bytes"`
	CreatedAt string `json:"created_at"`
}

const mediaUsage = `Usage:
  hangar media upload [--kind image|video|audio] <file>...   upload; prints ![name](<url>) per file
  hangar media list                                        the workspace's files
`

func runMedia(args []string, env *environment, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, mediaUsage)
		return 0
	}
	switch args[0] {
	case "upload":
		return mediaUpload(args[1:], env, stdout, stderr)
	case "list":
		return mediaList(env, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "hangar media: unknown subcommand %q\n\n%s", args[0], mediaUsage)
		return 2
	}
}

func mediaUpload(args []string, env *environment, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("media upload", flag.ContinueOnError)
	flags.SetOutput(stderr)
	kind := flags.String("kind", "", "image, video or audio (default: by extension)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if flags.NArg() == 0 {
		fmt.Fprint(stderr, "hangar media upload: name at least one file\n\n"+mediaUsage)
		return 2
	}
	switch *kind {
	case "", "image", "video", "audio":
	default:
		fmt.Fprintf(stderr, "hangar media upload: --kind must be image, video or audio, not %q\n", *kind)
		return 2
	}
	failed := 0
	for _, path := range flags.Args() {
		markdown, err := uploadOne(env, path, *kind)
		if err != nil {
			fmt.Fprintf(stderr, "hangar media upload: %s: %v\n", path, err)
			failed++
			continue
		}
		fmt.Fprintln(stdout, markdown)
	}
	if failed > 0 {
		return 1
	}
	return 0
}

func uploadOne(env *environment, path, kind string) (string, error) {
	file, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", errors.New("not a regular file")
	}
	query := url.Values{"filename": {filepath.Base(path)}}
	if kind != "" {
		query.Set("kind", kind)
	}
	var answer struct {
		Media    mediaFile `json:"media"`
		Markdown string    `json:"markdown"`
	}
	target := "/v1/replica/" + url.PathEscape(env.workspaceID) + "/media?" + query.Encode()
	if err := env.call("POST", target, sizedReader{file, info.Size()}, "application/octet-stream", &answer); err != nil {
		return "", err
	}
	return answer.Markdown, nil
}

// sizedReader lets the request carry Content-Length, so Hangar can refuse a file over its
// limit before any byte is sent.
type sizedReader struct {
	io.Reader
	size int64
}

func (s sizedReader) Size() int64 { return s.size }

func mediaList(env *environment, stdout, stderr io.Writer) int {
	var answer struct {
		Media []mediaFile `json:"media"`
		Total int         `json:"total"`
	}
	if err := env.call("GET", "/v1/replica/"+url.PathEscape(env.workspaceID)+"/media?limit=100", nil, "", &answer); err != nil {
		fmt.Fprintf(stderr, "hangar media list: %v\n", err)
		return 1
	}
	for _, m := range answer.Media {
		fmt.Fprintf(stdout, "%s\t%s\t%d\t%s\t%s\n", m.ID, m.Kind, m.SizeBytes, m.CreatedAt, strings.ReplaceAll(m.Filename, "\t", " "))
	}
	if answer.Total > len(answer.Media) {
		fmt.Fprintf(stdout, "(%d more not shown)\n", answer.Total-len(answer.Media))
	}
	return 0
}
