const Router = require('./index');

function hello() {
  return 'hi';
}

function run() {
  const router = new Router();
  router.use(hello).use(hello);
  const route = router.route('/a');
  route.dispatch({});
  route.get(hello);
}

run();
