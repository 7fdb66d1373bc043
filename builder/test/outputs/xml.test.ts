import t from 'tap';
import { cdata, escapeXml } from '../../src/outputs/xml.ts';

t.test('xml', async (t) => {
  t.test('should escape markup characters and drop characters XML cannot hold', async (t) => {
    t.equal(escapeXml(`a & <b> "c" 'd'\u0001\u000b\tok`), 'a &amp; &lt;b&gt; &quot;c&quot; &apos;d&apos;\tok');
  });

  t.test('should split ]]> inside CDATA', async (t) => {
    t.equal(cdata('x]]>y'), '<![CDATA[x]]]]><![CDATA[>y]]>');
  });
});
