/** Inline style of report.html. */
export const REPORT_CSS = `
:root{--fail:#b42318;--warn:#b54708;--error:#6941c6;--skip:#667085;--pass:#067647;--bg:#fff;--fg:#101828;--muted:#475467;--line:#eaecf0}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header.top{padding:16px 24px;border-bottom:4px solid var(--skip)}header.s-passed{border-color:var(--pass)}header.s-failed{border-color:var(--fail)}header.s-incomplete{border-color:var(--error)}
h1{margin:0;font-size:22px}h1 small{color:var(--muted);font-weight:400}h2{font-size:18px;margin:24px 0 8px}h3{font-size:15px}
.verdict{font-size:16px;margin:6px 0}.exit{color:var(--muted);font-size:12px}.cert{display:inline-block;padding:2px 8px;border-radius:4px;margin:0}.cert.ok{background:#ecfdf3;color:var(--pass)}.cert.no{background:#fef3f2;color:var(--fail)}
main{padding:0 24px 24px;max-width:1400px}dl{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:4px 16px;margin:0}dl div{display:flex;gap:8px}dt{color:var(--muted);min-width:120px}dd{margin:0;word-break:break-all}
.cards{display:flex;gap:8px;flex-wrap:wrap}.card{border:1px solid var(--line);background:#fff;border-radius:8px;padding:8px 16px;min-width:90px;cursor:pointer;text-align:left}.card b{display:block;font-size:22px}.card.active{outline:2px solid var(--fg)}
.v-fail{color:var(--fail)}.v-warn{color:var(--warn)}.v-error{color:var(--error)}.v-skip{color:var(--skip)}.v-pass{color:var(--pass)}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}table.per-suite{width:auto;margin-top:12px}td.n{text-align:right}
.filters{display:flex;gap:12px;flex-wrap:wrap;margin:8px 0}.filters input{width:260px}
tr.main{cursor:pointer}tr.main:hover{background:#f9fafb}td.id{font-family:ui-monospace,monospace;white-space:nowrap}td.src{color:var(--muted);font-size:12px}
.badge{display:inline-block;border:1px solid currentColor;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;white-space:nowrap}
tr.detail td{background:#f9fafb}.finding{border-left:4px solid var(--fail);padding:4px 12px;margin:8px 0;background:#fff}.finding.o-skipped{border-color:var(--skip)}.finding.o-errored{border-color:var(--error)}
pre{white-space:pre-wrap;word-break:break-all;margin:4px 0;font:12px/1.4 ui-monospace,monospace;background:#f2f4f7;padding:8px;border-radius:4px;max-height:420px;overflow:auto}
table.ea th{width:80px;color:var(--muted)}details.exchange{margin:6px 0;border:1px solid var(--line);border-radius:4px;padding:4px 8px;background:#fff}details.exchange summary{font-family:ui-monospace,monospace;cursor:pointer}
.xerr{color:var(--error)}.curl{position:relative}.copy{position:absolute;right:4px;top:4px;font-size:11px}.known{color:var(--warn)}.kf-stale{color:var(--fail)}
footer{margin-top:32px;color:var(--muted);font-size:12px}
`;

/** Inline script of report.html: filters and row expansion, nothing else. */
export const REPORT_JS = `
(function(){
  var $=function(s){return document.querySelector(s)};
  var rows=[].slice.call(document.querySelectorAll('tbody.req'));
  var fv=$('#f-verdict'),fs=$('#f-suite'),fl=$('#f-level'),fk=$('#f-kind'),ft=$('#f-text'),shown=$('#shown');
  function apply(){
    var v=fv.value,s=fs.value,l=fl.value,k=fk.value,t=ft.value.trim().toLowerCase(),n=0;
    rows.forEach(function(r){
      var d=r.dataset,ok=(!v||(v==='nonpass'?d.verdict!=='pass':d.verdict===v))&&(!s||d.suite===s)&&(!l||d.level===l)&&(!k||d.kind===k)&&(!t||d.text.indexOf(t)>=0);
      r.hidden=!ok;if(ok)n++;
    });
    shown.textContent='('+n+' of '+rows.length+' shown)';
    [].forEach.call(document.querySelectorAll('.card'),function(c){c.classList.toggle('active',c.dataset.filterVerdict===v)});
    var q=new URLSearchParams();if(v)q.set('verdict',v);if(s)q.set('suite',s);if(l)q.set('level',l);if(k)q.set('kind',k);if(t)q.set('q',t);
    history.replaceState(null,'',q.toString()?'#'+q.toString():location.pathname);
  }
  [fv,fs,fl,fk].forEach(function(e){e.addEventListener('change',apply)});ft.addEventListener('input',apply);
  [].forEach.call(document.querySelectorAll('.card'),function(c){c.addEventListener('click',function(){fv.value=fv.value===c.dataset.filterVerdict?'':c.dataset.filterVerdict;apply()})});
  rows.forEach(function(r){var m=r.querySelector('tr.main'),d=r.querySelector('tr.detail');
    function toggle(){d.hidden=!d.hidden}
    m.addEventListener('click',toggle);m.addEventListener('keydown',function(e){if(e.key==='Enter')toggle()});});
  document.addEventListener('click',function(e){var b=e.target;if(b&&b.classList&&b.classList.contains('copy')){
    var text=b.parentNode.querySelector('pre').textContent;if(navigator.clipboard){navigator.clipboard.writeText(text).then(function(){b.textContent='copied'},function(){})}}});
  function reveal(){var id=decodeURIComponent(location.hash.slice(1));if(id.indexOf('req-')!==0)return;var m=document.getElementById(id);if(!m)return;var b=m.parentNode;
    if(b.hidden){fv.value='';fs.value='';fl.value='';fk.value='';ft.value='';apply();history.replaceState(null,'','#'+id)}
    b.querySelector('tr.detail').hidden=false;m.scrollIntoView()}
  window.addEventListener('hashchange',reveal);
  if(location.hash.indexOf('#req-')===0){apply();reveal();return}
  var h=new URLSearchParams(location.hash.slice(1));
  if(h.get('verdict'))fv.value=h.get('verdict');if(h.get('suite'))fs.value=h.get('suite');if(h.get('level'))fl.value=h.get('level');if(h.get('kind'))fk.value=h.get('kind');if(h.get('q'))ft.value=h.get('q');
  apply();
})();
`;
