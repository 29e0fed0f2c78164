import { expect } from 'chai';
import { checkCanvasFilename, contentDisposition, kindOf, mediaKindOf, mimeTypeOf, parseRange, sanitizeFilename } from '../../../src/domain/media';
import { DomainError } from '../../../src/domain/errors';

describe('media rules', () => {
  it('gives canvas kinds by extension as the original does (interop §12)', () => {
    const kinds: Record<string, string> = {
      'a.md': 'markdown', 'a.MARKDOWN': 'markdown', 'a.html': 'html', 'a.htm': 'html', 'a.png': 'image', 'a.jpeg': 'image', 'a.svg': 'image',
      'a.webp': 'image', 'a.mp4': 'video', 'a.mov': 'video', 'a.webm': 'video', 'a.mp3': 'audio', 'a.wav': 'audio', 'a.ogg': 'audio', 'a.txt': 'other', Makefile: 'other',
    };
    for (const [name, kind] of Object.entries(kinds)) expect(kindOf(name), name).to.equal(kind);
    expect(mimeTypeOf('x.md')).to.equal('text/markdown; charset=utf-8');
    expect(mimeTypeOf('x.unknown')).to.equal('application/octet-stream');
  });

  it('takes the uploader’s media kind, else the extension’s, with markdown and html as other', () => {
    expect(mediaKindOf('x.bin', 'video')).to.equal('video');
    expect(mediaKindOf('x.png')).to.equal('image');
    expect(mediaKindOf('x.md')).to.equal('other');
    expect(mediaKindOf('x.png', 'other')).to.equal('image');
  });

  it('refuses canvas names that could leave the directory', () => {
    for (const bad of ['', '.', '..', '../x', 'a/b', 'a\\b', 'a\u0000b', 'a\nb', 'x'.repeat(256)]) {
      expect(() => checkCanvasFilename(bad), JSON.stringify(bad)).to.throw(DomainError);
    }
    for (const good of ['plan.md', '..hidden', 'with space.png', 'ünïcode.md']) expect(checkCanvasFilename(good)).to.equal(good);
  });

  it('sanitises upload names to one safe segment', () => {
    expect(sanitizeFilename('../../etc/passwd')).to.equal('passwd');
    expect(sanitizeFilename('C:\\Users\\me\\shot.png')).to.equal('shot.png');
    expect(sanitizeFilename('clip "one"\r\n.mp4')).to.equal('clip one.mp4');
    expect(sanitizeFilename('.env')).to.equal('env');
    expect(sanitizeFilename(`${'a'.repeat(300)}.png`)).to.have.length(200).and.match(/\.png$/);
    expect(() => sanitizeFilename('../')).to.throw(DomainError);
  });

  it('writes Content-Disposition with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('attachment', 'plan.md')).to.equal(`attachment; filename="plan.md"; filename*=UTF-8''plan.md`);
    expect(contentDisposition('inline', 'résumé (1).pdf')).to.equal(`inline; filename="r_sum_ (1).pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.pdf`);
  });

  it('parses one byte range, clamping its end, and says when none of it exists', () => {
    expect(parseRange(undefined, 10)).to.equal(null);
    expect(parseRange('bytes=2-5', 10)).to.deep.equal({ start: 2, end: 5 });
    expect(parseRange('bytes=7-', 10)).to.deep.equal({ start: 7, end: 9 });
    expect(parseRange('bytes=7-100', 10)).to.deep.equal({ start: 7, end: 9 });
    expect(parseRange('bytes=-3', 10)).to.deep.equal({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).to.deep.equal({ start: 0, end: 9 });
    expect(parseRange('bytes=10-', 10)).to.equal('unsatisfiable');
    expect(parseRange('bytes=10-5', 10)).to.equal('unsatisfiable');
    expect(parseRange('bytes=0-0', 0)).to.equal('unsatisfiable');
    // What is not one simple range is served whole.
    expect(parseRange('bytes=0-1,4-5', 10)).to.equal(null);
    expect(parseRange('items=0-1', 10)).to.equal(null);
    expect(parseRange('bytes=5-2', 10)).to.equal(null);
  });
});
